// A cell of memory shared with a forked child: the child writes the stage
// it is in and whether it ran out of memory; the parent reads both after
// the child crashed, hung or was killed, when nothing else comes back.
#pragma once

#include <string>

namespace cc::process {

class StageCell {
public:
  StageCell(); // maps the cell: create it before forking
  ~StageCell();
  StageCell(const StageCell &) = delete;
  StageCell &operator=(const StageCell &) = delete;
  bool ok() const; // false when the mapping failed

  // In the child; async-signal-safe. Long names are cut.
  void setStage(const char *stage);
  void setOutOfMemory();

  // In the parent.
  std::string stage() const;
  bool outOfMemory() const;
  void reset(const char *stage = "");

private:
  struct Shared;
  Shared *cell;
};

// Makes an allocation that fails in this process (under the child's
// RLIMIT_AS) mark `cell` before the failure takes its course: operator new
// still throws std::bad_alloc. Call in the child.
void noteOutOfMemoryIn(StageCell &cell);

} // namespace cc::process
