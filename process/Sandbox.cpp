#include "process/Sandbox.h"

#include "process/Process.h"

#include <csignal>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <sys/prctl.h>

namespace cc::process {

namespace {

// Calls that start programs, reach the network or change the file system.
// clone is allowed for threads only (CLONE_THREAD); clone3 answers ENOSYS,
// so that libc falls back to clone, whose flags the filter can read.
constexpr int kKilled[] = {
    SCMP_SYS(execve),    SCMP_SYS(execveat),
    SCMP_SYS(fork),      SCMP_SYS(vfork),
    SCMP_SYS(socket),    SCMP_SYS(socketpair),
    SCMP_SYS(connect),   SCMP_SYS(bind),
    SCMP_SYS(ptrace),    SCMP_SYS(process_vm_writev),
    SCMP_SYS(unlink),    SCMP_SYS(unlinkat),
    SCMP_SYS(rename),    SCMP_SYS(renameat),
    SCMP_SYS(renameat2), SCMP_SYS(mkdir),
    SCMP_SYS(mkdirat),   SCMP_SYS(rmdir),
    SCMP_SYS(symlink),   SCMP_SYS(symlinkat),
    SCMP_SYS(link),      SCMP_SYS(linkat),
    SCMP_SYS(chmod),     SCMP_SYS(fchmodat),
    SCMP_SYS(chown),     SCMP_SYS(fchownat),
    SCMP_SYS(truncate),  SCMP_SYS(creat),
    SCMP_SYS(mknod),     SCMP_SYS(mknodat),
};

Error rule(scmp_filter_ctx ctx, int syscall, uint32_t action) {
  if (seccomp_rule_add(ctx, action, syscall, 0) != 0)
    return makeError("cannot add a sandbox rule for system call " +
                     std::to_string(syscall));
  return Error::success();
}

Error addRules(scmp_filter_ctx ctx) {
  for (int s : kKilled)
    CC_TRY(rule(ctx, s, SCMP_ACT_KILL_PROCESS));
  CC_TRY(rule(ctx, SCMP_SYS(clone3), SCMP_ACT_ERRNO(ENOSYS)));
  // A clone that is not a thread is a new process.
  if (seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(clone), 1,
                       SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)) != 0)
    return makeError("cannot add the sandbox rule for clone");
  // Opening a file for writing, or creating one: each flag that asks for
  // it kills (a rule compares one masked value).
  for (unsigned flag : {unsigned(O_WRONLY), unsigned(O_RDWR), unsigned(O_CREAT),
                        unsigned(O_TRUNC), unsigned(O_APPEND)})
    if (seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(open), 1,
                         SCMP_A1(SCMP_CMP_MASKED_EQ, flag, flag)) != 0 ||
        seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(openat), 1,
                         SCMP_A2(SCMP_CMP_MASKED_EQ, flag, flag)) != 0)
      return makeError("cannot add the sandbox rules for open");
  return rule(ctx, SCMP_SYS(openat2), SCMP_ACT_KILL_PROCESS);
}

} // namespace

Error enterSandbox() {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx)
    return makeError("cannot create the sandbox filter");
  Error e = addRules(ctx);
  // NO_NEW_PRIVS (set by seccomp_load by default) lets an unprivileged
  // process install the filter.
  if (!e && seccomp_load(ctx) != 0)
    e = makeError("cannot load the sandbox filter");
  seccomp_release(ctx);
  return e;
}

bool stoppedBySandbox(const ProcessResult &r) { return r.signal == SIGSYS; }

std::string sandboxNote(const ProcessResult &r) {
  return stoppedBySandbox(r)
             ? " (stopped by the sandbox: it made a system call that starts "
               "a program, opens a socket or writes a file)"
             : "";
}

} // namespace cc::process
