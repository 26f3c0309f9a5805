// bench/arms/nginx.hpp — the nginx reference arm (a web server arm:
// web_server.hpp): its configuration (return 200 "ok" on /health, keep-alive
// unlimited, a worker per server CPU, everything under the run's folder) and
// its command line. Its row's hooks are nginx_hooks (nginx.cpp). Owns nginx
// specifics only; starting and stopping it is the supervisor's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/plan/arm.hpp"

namespace bench {

// nginx.conf for a server listening on `listen` ("127.0.0.1:8080"; on a
// server host "0.0.0.0:{port}", replaced there: remote_child.hpp) with
// `workers` processes; logs, pid and temp files in `dir`. http2: the port
// speaks HTTP/2 in cleartext with prior knowledge (`listen ... http2`, h2c),
// as zapbench's --http2 does; else HTTP/1.1.
std::string nginx_conf(const std::string& dir, const std::string& listen, std::size_t workers,
                       bool http2 = false);

// The argv that runs `nginx` in the foreground with `dir`/nginx.conf.
std::vector<std::string> nginx_argv(const std::string& nginx, const std::filesystem::path& dir);

// nginx's cells: hello over HTTP/1.1, and over HTTP/2 (h2c) where the run has it.
void nginx_cells(CellPlanner& planner, matrix::Arm arm);

}  // namespace bench
