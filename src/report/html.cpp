// report/html.cpp — placeholder
#include "report/model.hpp"
