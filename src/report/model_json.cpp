// report/model_json.cpp — placeholder
#include "report/model.hpp"
