// proc/usage.hpp — what a process holds, read from /proc: its open
// descriptors and its resident memory. The c100k scenario measures its
// server and itself with them; tests check that nothing was left open.
#pragma once

#include <sys/types.h>

namespace proc {

// Entries of /proc/<pid>/fd; -1 when they cannot be read (the process is gone).
long open_descriptors(pid_t pid);
// This process's, less the one its own listing opens.
long open_descriptors();

// VmRSS of /proc/<pid>/status, in KiB; 0 when it cannot be read.
double rss_kib(pid_t pid);

}  // namespace proc
