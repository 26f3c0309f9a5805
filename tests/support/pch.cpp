// tests/support/pch.cpp — the empty file test_pch compiles: its precompiled header (the standard
// library's and GoogleTest's headers) is what every suite reuses (tests/CMakeLists.txt).
