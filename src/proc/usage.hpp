// proc/usage.hpp — what a process holds, read from /proc: its open
// descriptors (how many, and which) and its resident memory. The c100k scenario measures its
// server and itself with them; tests check that nothing was left open.
#pragma once

#include <sys/types.h>

#include <map>
#include <string>

namespace proc {

// Entries of /proc/<pid>/fd; -1 when they cannot be read (the process is gone).
long open_descriptors(pid_t pid);
// This process's, less the one its own listing opens.
long open_descriptors();

// This process's open descriptors, each with what it names (readlink of
// /proc/self/fd/N: "socket:[4711]", "pipe:[12]", "/dev/null", "anon_inode:[eventpoll]"),
// less the one its own listing opens: which descriptor a count's difference is.
std::map<int, std::string> open_descriptor_targets();
// The entries of `now` that `before` does not hold (the same number naming the
// same thing), as "fd 13 -> socket:[4711]" lines: what was opened between the two.
std::string descriptors_added(const std::map<int, std::string>& before,
                              const std::map<int, std::string>& now);

// VmRSS of /proc/<pid>/status, in KiB; 0 when it cannot be read.
double rss_kib(pid_t pid);

}  // namespace proc
