// report/doc_c100k.cpp — the report's c100k section (Results::c100k, the
// scenario of bench/run/c100k.hpp): per backend, the connections held (or the
// limit that stopped them, named), the time to accept them, the server's
// user-space memory and the kernel's socket memory per connection, the
// answered sample's latency and errors, and whether everything was given
// back; then the limits the run changed and the commands. Absent when the run
// had no c100k scenario.
#include "report/document_parts.hpp"

namespace report::doc {

namespace {

std::string held_text(const C100k& c) {
  std::string s = grouped(double(c.reached)) + " of " + grouped(double(c.asked));
  if (!c.limit.empty()) s += ": " + c.limit;
  if (!c.error.empty()) s += " (error: " + c.error + ")";
  return s;
}

std::string bytes_text(double b) { return std::isfinite(b) ? grouped(b) + " B" : "—"; }

}  // namespace

void c100k(const Results& r, Out& out) {
  if (r.c100k.empty()) return;
  out.heading(2, "100,000 connections (c100k)", "c100k");
  out.para(
      {"N idle connections held open on one zapbench server (one worker thread, ZAP-RPC listener), "
       "from several source addresses of this machine, while a small `zapbench load` sample on other "
       "connections of the same server is answered at a modest open-loop rate the whole time. User "
       "memory is the server's RSS growth over the connections it holds; kernel memory is the growth "
       "of Slab (/proc/meminfo) and of TCP's page count (/proc/net/sockstat) over them, both ends' "
       "sockets (client and server) on this one machine. The target: ≤ 4 KiB of user memory per "
       "connection, the sample answered without an error, nothing left open."});
  Table t;
  t.header = {"backend", "held",           "accept time", "user / conn.", "kernel / conn.",
              "sample",  "sample p50/p99", "errors",      "all closed"};
  t.align = "llrrrrrrl";
  for (const C100k& c : r.c100k) {
    const bool given_back = c.all_closed && c.fds_left == 0;
    t.rows.push_back({Text(c.io), Text(held_text(c)), Text(fixed(c.accept_s, 2) + " s"),
                      Text(bytes_text(c.user_bytes_per_connection)),
                      Text(bytes_text(c.kernel_bytes_per_connection)),
                      Text(grouped(double(c.sample_responses)) + " answers, " +
                           std::to_string(c.sample_connections) + " conn."),
                      Text(ns_text(c.sample_p50_ns) + " / " + ns_text(c.sample_p99_ns)),
                      Text(grouped(double(c.sample_errors))),
                      Text(given_back ? "yes" : "no (" + std::to_string(c.fds_left) + " descriptors left)")});
  }
  out.table(std::move(t));
  std::vector<Runs> notes;
  for (const C100k& c : r.c100k) {
    notes.push_back({strong(c.io + ":"),
                     " server RSS " + grouped(c.server_rss_before_kib) + " KiB before, " +
                         grouped(c.server_rss_held_kib) + " KiB held; sockets in use " +
                         grouped(double(c.sockets_before)) + " → " + grouped(double(c.sockets_held)) +
                         ", TCP pages " + grouped(double(c.tcp_mem_pages_before)) + " → " +
                         grouped(double(c.tcp_mem_pages_held)) + ", Slab " +
                         grouped(double(c.slab_kib_before)) + " → " + grouped(double(c.slab_kib_held)) +
                         " KiB; connecting took " + fixed(c.connect_s, 2) + " s; " + c.limits_changed + "."});
    if (!c.server_command.empty()) notes.push_back({"server: ", code(c.server_command)});
    if (!c.loader_command.empty()) notes.push_back({"sample: ", code(c.loader_command)});
  }
  out.bullets(std::move(notes));
}

}  // namespace report::doc
