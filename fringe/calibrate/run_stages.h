// The stages of a calibration's wall-clock times (core/timer.h StageTimers, one stage per time
// field of CalibrateMsResult, calibrate_ms.h), in seconds. The I/O threads add to the read and
// write stages while the calibration runs (StageTimers is thread safe).
#pragma once

#include "fringe/calibrate/calibrate_ms.h"
#include "fringe/core/timer.h"

namespace fringe::calibrate::stage {

inline constexpr const char* kRead = "read";  // column reads, summed over the I/O threads
inline constexpr const char* kReadWait = "read wait";
inline constexpr const char* kPredict = "predict";
inline constexpr const char* kReorder = "reorder";
inline constexpr const char* kSolve = "solve";
inline constexpr const char* kNormalEq = "normal equations";
inline constexpr const char* kSolver = "solver";
inline constexpr const char* kResidual = "residual";
inline constexpr const char* kCorrect = "correct";
inline constexpr const char* kWrite = "write";             // all but FLAG's writes
inline constexpr const char* kWriteFlags = "write flags";  // FLAG's writes
inline constexpr const char* kWriteWait = "write wait";

// The stages' seconds into the result's time fields (write_sec includes FLAG's writes).
inline void copy_times(const StageTimers& t, CalibrateMsResult& r) {
  r.read_sec = t.seconds(kRead);
  r.read_wait_sec = t.seconds(kReadWait);
  r.predict_sec = t.seconds(kPredict);
  r.reorder_sec = t.seconds(kReorder);
  r.solve_sec = t.seconds(kSolve);
  r.normal_eq_sec = t.seconds(kNormalEq);
  r.solver_sec = t.seconds(kSolver);
  r.residual_sec = t.seconds(kResidual);
  r.correct_sec = t.seconds(kCorrect);
  r.write_flags_sec = t.seconds(kWriteFlags);
  r.write_sec = t.seconds(kWrite) + r.write_flags_sec;
  r.write_wait_sec = t.seconds(kWriteWait);
}

}  // namespace fringe::calibrate::stage
