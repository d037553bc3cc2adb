#include "sim/KnobText.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace sl {

namespace {

// "1e+06" -> "1e6", as people write it.
std::string withShortExponent(std::string s) {
    auto e = s.find('e');
    if (e == std::string::npos) return s;
    std::string mantissa = s.substr(0, e), exponent = s.substr(e + 1);
    std::string sign = exponent[0] == '-' ? "-" : "";
    if (exponent[0] == '+' || exponent[0] == '-') exponent.erase(0, 1);
    exponent.erase(0, std::min(exponent.find_first_not_of('0'), exponent.size() - 1));
    return mantissa + "e" + sign + exponent;
}

std::string shortestText(double v) {
    std::ostringstream os;
    os.precision(std::numeric_limits<double>::max_digits10);
    os << v;
    std::string precise = os.str();
    for (int digits = 1; digits < std::numeric_limits<double>::max_digits10; ++digits) {
        std::ostringstream shortOs;
        shortOs.precision(digits);
        shortOs << v;
        if (std::strtod(shortOs.str().c_str(), nullptr) == v) return withShortExponent(shortOs.str());
    }
    return precise;
}

} // namespace

std::string knobNumberText(double v, KnobNumberStyle style) {
    switch (style) {
    case KnobNumberStyle::Exact:
        return std::isinf(v) ? (v > 0 ? "inf" : "-inf") : shortestText(v);
    case KnobNumberStyle::Readable: {
        if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.12g", v);
        return buf;
    }
    case KnobNumberStyle::Whole:
        break;
    }
    if (std::isfinite(v) && v == std::floor(v) && std::abs(v) < 1e15)
        return std::to_string(static_cast<long long>(v));
    return nlohmann::json(v).dump();
}

std::string knobValueText(const nlohmann::json& value, KnobNumberStyle style) {
    if (value.is_string()) return value.get<std::string>();
    // Whole keeps an integer JSON value's own digits (beyond 1e15 too).
    if (value.is_number() && !(style == KnobNumberStyle::Whole && !value.is_number_float()))
        return knobNumberText(value.get<double>(), style);
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace sl
