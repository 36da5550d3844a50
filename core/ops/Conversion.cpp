#include "core/ops/Families.h"

namespace cc {
void addConversionOps(std::vector<OpDef> &) {}
} // namespace cc
