// Placeholder: filled in by its engineer this session.
#include "fringe/imager/conv_grid.h"
