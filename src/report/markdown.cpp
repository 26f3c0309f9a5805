// report/markdown.cpp — placeholder
#include "report/model.hpp"
