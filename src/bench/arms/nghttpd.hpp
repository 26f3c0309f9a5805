// bench/arms/nghttpd.hpp — the nghttpd arm (Debian nghttp2-server): the HTTP/2
// server of nghttp2, the library zapbench's own HTTP/2 server is built on, a
// web server arm (web_server.hpp). `hello` is GET /health answered "ok" from
// a static file of those two bytes in its document root ({tmpdir}), HTTP/2
// over cleartext with prior knowledge (h2c, --no-tls), one worker per server
// CPU (-n). It serves no HTTP/1.1. Its row's hooks are nghttpd_hooks (nghttpd.cpp).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace bench {

// nghttpd's command line: `binary` serving `dir` on `host`:{port} with `workers` workers.
std::vector<std::string> nghttpd_argv(const std::string& binary, const std::string& dir,
                                      const std::string& host, std::size_t workers);

}  // namespace bench
