#include "fringe/vis/vis_block.h"

namespace fringe::vis {

template class VisBlock<float>;
template class VisBlock<double>;

}  // namespace fringe::vis
