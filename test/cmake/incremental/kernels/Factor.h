#ifndef INCR_FACTOR_H
#define INCR_FACTOR_H
constexpr float kFactor = 2.0f;
#endif
