// proc/interrupt.hpp — SIGINT/SIGTERM as "stop everything now" for a command
// that works through child processes (`zapbench run`): the handler only
// records the signal and writes a self-pipe; the work happens in the main
// flow. Every wait on a child — bench::Child's waits (bench/children),
// read_some over children's outputs (io.hpp) — sees it, ends its child at
// once and throws Interrupted, which unwinds whatever phase was running (the
// Childs' destructors reap what is left) up to the run, which writes what was
// measured and exits 130. The long-running servers' graceful stop is
// stop_signals.hpp's (a signal thread, no handler).
#pragma once

namespace proc {

// Thrown by a wait once an interrupt came, after its child has ended. Not a
// std::exception on purpose: the handlers that turn a child's failure into a
// note (catch (const std::exception&)) let it through to the run. Sticky:
// the interrupt stays recorded, so a handler that swallows it (a cleanup's
// catch (...)) only delays it to the next wait, which throws again.
struct Interrupted {
  int signal = 0;  // SIGINT or SIGTERM
};

// Installs the handlers of SIGINT and SIGTERM (SA_RESTART: a system call
// they interrupt resumes) and ignores SIGPIPE (a reader that is gone is an
// EPIPE). Call once, before any thread starts; later calls do nothing.
// Children get the default dispositions back at exec.
void catch_interrupts();

// The signal that came (SIGINT, SIGTERM); 0 while none has.
[[nodiscard]] int interrupt_signal() noexcept;
[[nodiscard]] inline bool interrupted() noexcept { return interrupt_signal() != 0; }

// Readable from the first interrupt on (and never drained): for a poll()
// beside a child's descriptors, so the wait wakes at once. -1 before
// catch_interrupts().
[[nodiscard]] int interrupt_fd() noexcept;

// Throws Interrupted when one came: for a wait that has no child of its own
// to end (polling a port until a server accepts).
void throw_if_interrupted();

// "SIGTERM", "SIGINT": the signal's name, for the run's note.
[[nodiscard]] const char* signal_name(int signal) noexcept;

// For tests: as if `signal` had come (what the handler does), and forgetting
// it again so the next test starts clean.
void record_interrupt(int signal) noexcept;
void clear_interrupt() noexcept;

}  // namespace proc
