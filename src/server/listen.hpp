// server/listen.hpp — the server component's names for the event core's
// address and listening socket (net/socket.hpp), kept so that callers
// (cli/, tests) that say server::Endpoint and server::listen_on still build.
#pragma once

#include "net/socket.hpp"

namespace server {

using net::Endpoint;
using net::fail;
using net::listen_on;

}  // namespace server
