// The sandbox a forked child enters before it runs code that came from
// data: JIT-compiled code of a program or graph (docs/SECURITY.md). Linux
// seccomp, irreversible: the child cannot start programs (execve, fork,
// vfork), open network sockets, or create, write, rename or remove files;
// it keeps its open descriptors (its result pipe, stderr) and its memory.
// A blocked call kills the child with SIGSYS, which its parent reports as
// "stopped by the sandbox" (sandboxNote), never as the compiler's crash.
#pragma once

#include "core/Error.h"

#include <string>

namespace cc::process {

struct ProcessResult;

// Enters the sandbox; only ever in a forked child (it cannot be left).
Error enterSandbox();

// " (stopped by the sandbox: ...)" when r died of the sandbox's SIGSYS,
// else "".
std::string sandboxNote(const ProcessResult &r);
bool stoppedBySandbox(const ProcessResult &r);

} // namespace cc::process
