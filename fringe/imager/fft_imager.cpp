// Placeholder: filled in by its engineer this session.
#include "fringe/imager/conv_imager.h"
