/* Prints OSKAR 2.13's geomagnetic field (oskar_station_evaluate_magnetic_field, IGRF-14) at the
 * positions and decimal years read from stdin, one "lat_deg lon_deg height_m year" per line
 * ('#' lines are skipped). Output, one line per case, all %.17g:
 *   lat_rad lon_rad height_m year east_nT north_nT up_nT total_nT
 * A case OSKAR refuses (year out of range) prints "lat_rad lon_rad height_m year ERROR <status>".
 * Built by hand, not by fringe's CMake: see README.md in this directory. */
#include <math.h>
#include <stdio.h>

#include "mem/oskar_mem.h"
#include "telescope/station/oskar_station.h"

int main(void) {
  char line[512];
  int status = 0;
  oskar_Station* st = oskar_station_create(OSKAR_DOUBLE, OSKAR_CPU, 0, &status);
  if (status || !st) return 1;
  printf("# lat_rad lon_rad height_m year east_nT north_nT up_nT total_nT\n");
  while (fgets(line, sizeof line, stdin)) {
    double lat_deg, lon_deg, h, year;
    if (line[0] == '#' || sscanf(line, "%lf %lf %lf %lf", &lat_deg, &lon_deg, &h, &year) != 4)
      continue;
    const double lat = lat_deg * M_PI / 180.0, lon = lon_deg * M_PI / 180.0;
    status = 0;
    oskar_station_set_position(st, lon, lat, h, 0.0, 0.0, 0.0);
    oskar_station_evaluate_magnetic_field(st, year, &status);
    if (status) {
      printf("%.17g %.17g %.17g %.17g ERROR %d\n", lat, lon, h, year, status);
      continue;
    }
    const double* b = oskar_station_magnetic_field(st);
    printf("%.17g %.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", lat, lon, h, year, b[0], b[1], b[2],
           b[3]);
  }
  status = 0;
  oskar_station_free(st, &status);
  return 0;
}
