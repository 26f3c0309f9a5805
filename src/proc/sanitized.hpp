// proc/sanitized.hpp — whether this binary is built with ASan or TSan, one answer for GCC (which
// defines __SANITIZE_ADDRESS__ / __SANITIZE_THREAD__) and clang (which answers __has_feature): what
// valgrind cannot run, and where RSS and speed are not the release build's.
#pragma once

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ZAPBENCH_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define ZAPBENCH_SANITIZED 1
#endif
#endif
#ifndef ZAPBENCH_SANITIZED
#define ZAPBENCH_SANITIZED 0
#endif

namespace proc {
inline constexpr bool kSanitized = ZAPBENCH_SANITIZED != 0;
}  // namespace proc
