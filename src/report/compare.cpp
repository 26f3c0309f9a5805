// report/compare.cpp — placeholder
#include "report/model.hpp"
