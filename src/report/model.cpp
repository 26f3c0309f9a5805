// report/model.cpp — placeholder
#include "report/model.hpp"
