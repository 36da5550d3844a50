#include "process/StageCell.h"

#include <cstdlib>
#include <cstring>
#include <cxxabi.h>
#include <exception>
#include <new>
#include <sys/mman.h>
#include <typeinfo>

namespace cc::process {

struct StageCell::Shared {
  char stage[256];
  volatile int outOfMemory;
};

StageCell::StageCell() {
  void *mem = mmap(nullptr, sizeof(Shared), PROT_READ | PROT_WRITE,
                   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  cell = mem == MAP_FAILED ? nullptr : static_cast<Shared *>(mem);
  if (cell)
    reset();
}

StageCell::~StageCell() {
  if (cell)
    munmap(cell, sizeof(Shared));
}

bool StageCell::ok() const { return cell != nullptr; }

void StageCell::setStage(const char *stage) {
  if (!cell)
    return;
  size_t n = strnlen(stage, sizeof cell->stage - 1);
  std::memcpy(cell->stage, stage, n);
  cell->stage[n] = '\0';
}

void StageCell::setOutOfMemory() {
  if (cell)
    cell->outOfMemory = 1;
}

std::string StageCell::stage() const {
  if (!cell)
    return "";
  return std::string(cell->stage, strnlen(cell->stage, sizeof cell->stage));
}

bool StageCell::outOfMemory() const { return cell && cell->outOfMemory; }

void StageCell::reset(const char *stage) {
  if (!cell)
    return;
  cell->outOfMemory = 0;
  setStage(stage);
}

namespace {
StageCell *oomCell = nullptr;
void onAllocationFailure() {
  if (oomCell)
    oomCell->setOutOfMemory();
  std::set_new_handler(nullptr);
  throw std::bad_alloc();
}

// An allocator of its own (Z3's) throws its own out-of-memory exception,
// which may end the process uncaught: still running out of memory.
void onTerminate() {
  const std::type_info *t = abi::__cxa_current_exception_type();
  if (oomCell && t && std::strstr(t->name(), "out_of_memory"))
    oomCell->setOutOfMemory();
  std::abort();
}
} // namespace

void noteOutOfMemoryIn(StageCell &cell) {
  oomCell = &cell;
  std::set_new_handler(onAllocationFailure);
  std::set_terminate(onTerminate);
}

} // namespace cc::process
