#include "fringe/imager/conv_config.h"

#include <initializer_list>

namespace fringe::imager {

int wproj_grid_size(int image_size, double padding) {
  const long target = static_cast<long>(padding * image_size - 0.5);
  // Candidates are even, so start at the next even number above target and test each for
  // having no prime factors other than 2, 3 and 5.
  for (long n = target + 1 + ((target + 1) & 1);; n += 2) {
    long r = n;
    for (long p : {2L, 3L, 5L})
      while (r % p == 0) r /= p;
    if (r == 1) return static_cast<int>(n);
  }
}

}  // namespace fringe::imager
