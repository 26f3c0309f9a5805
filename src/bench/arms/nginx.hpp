// bench/arms/nginx.hpp — the nginx reference arm: finding the binary, its
// configuration (return 200 "ok" on /health, keep-alive unlimited, a worker
// per server CPU, everything under the run's folder) and its command line.
// nginx has no ready channel, so readiness is its port accepting a connection.
// Owns nginx specifics only; starting and stopping it is the supervisor's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/arms/arm.hpp"

namespace bench {

// nginx in /usr/sbin, /usr/local/sbin, /usr/bin, then on PATH; "" when absent.
std::string find_nginx();

// nginx.conf for a server listening on `listen` ("127.0.0.1:8080"; on a
// server host "0.0.0.0:{port}", replaced there: remote_child.hpp) with
// `workers` processes; logs, pid and temp files in `dir`. http2: the port
// speaks HTTP/2 in cleartext with prior knowledge (`listen ... http2`, h2c),
// as zapbench's --http2 does; else HTTP/1.1.
std::string nginx_conf(const std::string& dir, const std::string& listen, std::size_t workers,
                       bool http2 = false);

// The argv that runs `nginx` in the foreground with `dir`/nginx.conf.
std::vector<std::string> nginx_argv(const std::string& nginx, const std::filesystem::path& dir);

// A port free at the time of the call (nginx needs one up front): on
// loopback, or with `any_address` on every address of the host (a server
// other hosts dial: remote_child.hpp's {port}); 0 when none could be had.
// Another process could take it before the server binds it; the server then
// fails to bind and says so.
std::uint16_t free_port(bool any_address = false);

// Whether 127.0.0.1:port accepts a TCP connection now (one attempt, at most
// 100 ms).
bool accepting(std::uint16_t port);

// Polls accepting() until it holds or timeout_s (a hang bound) passes.
bool wait_accepting(std::uint16_t port, double timeout_s);

// nginx's row of the arm table (arm.hpp): hello over HTTP/1.1, and over
// HTTP/2 (h2c) where the run has it; unavailable when not found.
void nginx_cells(CellPlanner& planner, matrix::Arm arm);
// Its config written into a private directory and the port it listens on
// (plan.listen_host:{port}, chosen where it runs); ready once that port accepts.
ServerLaunch nginx_launch(const RunPlan& plan, const std::string& zapbench_exe, const CellPlan& cell);

}  // namespace bench
