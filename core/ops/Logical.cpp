#include "core/ops/Families.h"

namespace cc {
void addLogicalOps(std::vector<OpDef> &) {}
} // namespace cc
