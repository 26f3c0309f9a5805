// cli/run_about.hpp — the text `zapbench run --help` opens with: what a run
// does, its modes and its hosts, in a user's words. Data, kept apart from the
// flag table (run.cpp) so that each reads whole.
#pragma once

namespace cli {

inline constexpr const char* kRunAbout =
    "The whole benchmark on this machine, from one command:\n"
    "  1. the codec microbenchmarks (zapbench micro), a process per round;\n"
    "  2. the end-to-end matrix: scenario {hello, rpc, logs of N entries} x framing\n"
    "     {HTTP/1.1, HTTP/2, gRPC, ZAP-HTTP, ZAP-RPC} x body {each JSON codec, ZAP,\n"
    "     each binary peer} (rpc, logs) x connections x depth (pipelining on\n"
    "     HTTP/1.1 and ZAP-HTTP, streams on HTTP/2 and gRPC, calls in flight on\n"
    "     ZAP-RPC), each sample a fresh server process and a fresh loader process,\n"
    "     pinned to separate CPUs, every response validated;\n"
    "  3. reference arms: the Go reference's own stack (zapbench-go: zip, fasthttp,\n"
    "     net/http, its JSON codecs; what its build lacks is listed as unavailable),\n"
    "     nginx serving /health over HTTP/1.1 and HTTP/2, a gRPC C++ server\n"
    "     (zapbench-grpc: grpc++ on the generated zapbench.Eth service), and the\n"
    "     floor: a raw TCP echo of the same byte counts driven by the same loader;\n"
    "     and a control: one cell run twice in every round, as two cells.\n"
    "Samples are taken in rounds (round r of every cell before round r+1 of any;\n"
    "odd rounds backwards), so two arms' samples pair by round and drift hits\n"
    "every arm alike. Every comparison is a verdict: the ratio (the geometric mean\n"
    "of the per-round ratios) with its 95% confidence interval, 'ahead'/'behind'\n"
    "when the interval excludes 1, 'equivalent' within +-margin, else 'undecided'.\n"
    "After --repeats first rounds of every cell, the cells and microbenchmarks the\n"
    "report's findings compare get more rounds, one at a time, until each\n"
    "finding's interval is within +-precision or the run has taken its budget: it\n"
    "stops on precision, never on a verdict. The budget is the estimate printed\n"
    "first. Writes DIR/results.json (every sample with its round, the environment;\n"
    "paths relative to DIR), DIR/report.md and DIR/report.html.\n"
    "--quick (default): connections 1,16 x depth 1,16 but not 16 x 16; 0.25 s\n"
    "samples after 0.25 s; only the cells that answer the main questions (README,\n"
    "\"What --quick measures\"): every framing on hello; on rpc the body axis on\n"
    "HTTP/1.1 (the fastest JSON codec, ZAP, the fastest binary peer), gRPC and\n"
    "ZAP-RPC each with protobuf and ZAP, ZAP-HTTP with ZAP; logs N=100 on\n"
    "HTTP/1.1+JSON and ZAP-HTTP+ZAP; the Go reference's ZAP-HTTP+ZAP and HTTP/1.1\n"
    "cells; nginx, grpc++, the floor; the Logs microbenchmarks of those bodies at\n"
    "N=1,100,10000; findings to +-3% within a 10-minute budget. Giving --framings,\n"
    "--bodies, --connections or --pipeline measures every combination of what is\n"
    "given instead.\n"
    "--full: connections 1,16,125,1000; every framing x every codec; logs\n"
    "N=1,100,10000 (a logs cell with more than 2 GiB of answers in flight is listed\n"
    "unavailable, not run); 0.5 s samples after 0.5 s; findings to +-2% within a\n"
    "3-hour budget ('zapbench run --full --dry-run' prints every cell and the\n"
    "estimate).\n"
    "Several hosts (README \"Several hosts\"): --server-host S --loader-hosts A,B runs\n"
    "every server arm on S and spreads each load over A and B (connections or rate\n"
    "shared out), all over OpenSSH with your ssh config and keys; the same zapbench\n"
    "build must be at the same path there (or --remote-zapbench). Every host is\n"
    "checked first (reachable, the same build, its CPUs); the loaders start\n"
    "together on a \"go\" after their warm-up, the start skew is reported, and their\n"
    "histograms are merged exactly. --netns N builds the hosts here instead\n"
    "(root): network namespaces joined by a bridge, each with its own sshd.";

}  // namespace cli
