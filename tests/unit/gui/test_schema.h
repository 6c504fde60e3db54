// A small schema in OSKAR's vocabulary used by the GUI unit tests: groups, a Bool switch
// with a dependant, required settings (one of them behind the switch) and one setting of
// each editor kind.
#pragma once

#include <string>

inline const char* kTestSchemaXml = R"(<?xml version="1.0"?>
<root app="test_app" version="1.2.3">
  <s k="obs"><label>Observation</label>
    <s k="start_frequency_hz" required="true"><label>Start frequency [Hz]</label>
      <type name="Double"/><desc>First channel centre.</desc></s>
    <s k="num_channels"><label>Number of channels</label>
      <type name="IntRange" default="1">1,100</type></s>
    <s k="start_time_utc"><label>Start time (UTC)</label>
      <type name="DateTime" default="2000-01-01 12:00:00.000"/></s>
    <s k="length"><label>Observation length</label>
      <type name="Time" default="12:00:00.000"/></s>
    <s k="ra_deg"><label>Phase centre RA</label><type name="DoubleList" default="0"/></s>
  </s>
  <s k="noise"><label>Noise</label>
    <s k="enable"><label>Enable noise</label><type name="Bool" default="false"/></s>
    <s k="seed"><label>Seed</label><type name="RandomSeed" default="1"/>
      <depends k="noise/enable" v="true"/></s>
    <s k="rms_file" required="true"><label>RMS file</label><type name="InputFile"/>
      <depends k="noise/enable" v="true"/></s>
    <s k="details"><label>Details</label>
      <depends k="noise/enable" v="true"/>
      <s k="channels"><label>Channels</label><type name="IntListExt" default="all">all</type></s>
    </s>
  </s>
  <s k="beam"><label>Beam</label>
    <s k="kind"><label>Kind</label>
      <type name="OptionList" default="Isotropic" unsupported="Numerical">Isotropic,Gaussian,Numerical</type></s>
    <s k="devices"><label>Devices</label><type name="IntRangeExt" default="auto">0,64,auto</type></s>
    <s k="limit"><label>Limit</label><type name="DoubleRangeExt" default="min">-10,10,min,max</type></s>
    <s k="out"><label>Output file</label><type name="OutputFile" default=""/></s>
  </s>
</root>)";
