// The number parsing of the loader (io/NumberParse.h): integer ids (decimal and 0x hex), and times in
// microseconds as JSON writes them, read to exact nanoseconds: every way of writing one value
// (plain decimals, mantissa and exponent, leading and trailing zeros) reads back the same integer,
// and a digit past the nanoseconds rounds half away from zero.
#include "TestSupport.h"

#include "io/NumberParse.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

using sl::parseIntegerId;
using sl::parseMicrosecondsToNs;

namespace {

// The ways of writing ns nanoseconds as microseconds, followed by `extra` digits past the
// nanoseconds (empty: none).
std::vector<std::string> spellings(std::int64_t ns, const std::string& extra) {
    const bool negative = ns < 0;
    const std::string sign = negative ? "-" : "";
    const std::string digits =
        std::to_string(negative ? -static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns));
    const auto n = static_cast<int>(digits.size());
    std::vector<std::string> out;
    // Plain: the microseconds, a point, three decimals (padded) and the extra digits.
    std::string padded = std::string(digits.size() < 4 ? 4 - digits.size() : 0, '0') + digits;
    out.push_back(sign + padded.substr(0, padded.size() - 3) + "." + padded.substr(padded.size() - 3) +
                  extra);
    // Mantissa d.ddd with an exponent, as doubles are printed.
    const std::string rest = digits.substr(1) + extra;
    const std::string mantissa = digits.substr(0, 1) + (rest.empty() ? "" : "." + rest);
    const int exponent = n - 1 - 3;
    out.push_back(sign + mantissa + "e" + std::to_string(exponent));
    out.push_back(sign + mantissa + (exponent >= 0 ? "E+" : "E") + std::to_string(exponent));
    // The mantissa without its trailing zeros (the exponent supplies them).
    if (extra.empty()) {
        std::string stripped = digits.substr(1);
        while (!stripped.empty() && stripped.back() == '0')
            stripped.pop_back();
        out.push_back(sign + digits.substr(0, 1) + (stripped.empty() ? "" : "." + stripped) + "e" +
                      std::to_string(exponent));
    }
    // All digits before the point, a negative exponent; and leading zeros in the mantissa.
    if (extra.empty()) out.push_back(sign + digits + "e-3");
    out.push_back(sign + "0.000" + digits + extra + "e" + std::to_string(n + 3 - 3));
    // Trailing zeros in the mantissa, the exponent moved to match.
    out.push_back(sign + digits + (extra.empty() ? "000" : "." + extra) + "e-" +
                  std::to_string(extra.empty() ? 6 : 3));
    return out;
}

} // namespace

class TestNumberParse : public QObject {
    Q_OBJECT

private slots:
    void microsecondsParse_data() {
        QTest::addColumn<QString>("token");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("ns");
        QTest::newRow("integer") << "1712867402348628" << true << qint64(1712867402348628000);
        QTest::newRow("ns decimals") << "4458676522690.655" << true << qint64(4458676522690655);
        QTest::newRow("one decimal") << "2.5" << true << qint64(2500);
        QTest::newRow("rounds 4th decimal") << "0.0105" << true << qint64(11);
        QTest::newRow("negative") << "-3" << true << qint64(-3000);
        QTest::newRow("exponent") << "1.5e3" << true << qint64(1500000);
        QTest::newRow("epoch as a double") << "1.68918045356334e+15" << true << qint64(1689180453563340000);
        QTest::newRow("upper-case exponent") << "1E2" << true << qint64(100000);
        QTest::newRow("negative exponent") << "1500e-3" << true << qint64(1500);
        QTest::newRow("exponent rounds down") << "2.5e-4" << true << qint64(0);
        QTest::newRow("exponent rounds half up") << "5e-4" << true << qint64(1);
        QTest::newRow("exponent rounds away from zero") << "-5e-4" << true << qint64(-1);
        QTest::newRow("tiny") << "7e-30" << true << qint64(0);
        QTest::newRow("zero, large exponent") << "0e400" << true << qint64(0);
        QTest::newRow("exponent overflow") << "1e19" << false << qint64(0);
        QTest::newRow("huge exponent") << "1e400" << false << qint64(0);
        QTest::newRow("digits beyond 19") << "1.2345678901234567890123e3" << true << qint64(1234568);
        QTest::newRow("integer beyond int64, scaled down")
            << "12345678901234567890123e-20" << true << qint64(123457);
        QTest::newRow("integer beyond int64") << "12345678901234567890123" << false << qint64(0);
        QTest::newRow("overflow") << "99999999999999999999" << false << qint64(0);
        QTest::newRow("garbage") << "12a" << false << qint64(0);
        QTest::newRow("empty") << "" << false << qint64(0);
    }
    void microsecondsParse() {
        QFETCH(QString, token);
        QFETCH(bool, ok);
        QFETCH(qint64, ns);
        std::int64_t out = 0;
        QCOMPARE(parseMicrosecondsToNs(token.toStdString(), out), ok);
        if (ok) QCOMPARE(out, ns);
    }

    void integerIds_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<qint64>("value");
        QTest::newRow("decimal") << "7" << true << qint64(7);
        QTest::newRow("negative") << "-1" << true << qint64(-1);
        QTest::newRow("hex zero") << "0x0" << true << qint64(0);
        QTest::newRow("hex pointer") << "0x55d1c4a3f2b0" << true << qint64(0x55d1c4a3f2b0);
        QTest::newRow("hex upper") << "0XFF" << true << qint64(255);
        QTest::newRow("hex 64 bits") << "0xffffffffffffffff" << true << qint64(-1);
        QTest::newRow("hex 17 digits") << "0x1ffffffffffffffff" << false << qint64(0);
        QTest::newRow("hex no digits") << "0x" << false << qint64(0);
        QTest::newRow("hex bad digit") << "0x1g" << false << qint64(0);
        QTest::newRow("hex negative") << "0x-1" << false << qint64(0);
        QTest::newRow("word") << "default" << false << qint64(0);
        QTest::newRow("x7") << "x7" << false << qint64(0);
        QTest::newRow("empty") << "" << false << qint64(0);
        QTest::newRow("space") << " 7" << false << qint64(0);
        QTest::newRow("plus") << "+7" << false << qint64(0);
        QTest::newRow("trailing") << "7a" << false << qint64(0);
        QTest::newRow("decimal overflow") << "9223372036854775808" << false << qint64(0);
    }
    void integerIds() {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(qint64, value);
        std::int64_t out = 0;
        QCOMPARE(parseIntegerId(text.toStdString(), out), ok);
        if (ok) QCOMPARE(out, value);
    }

    void everySpellingReadsTheSameNanoseconds() {
        std::mt19937_64 random(20261123);
        std::vector<std::int64_t> values = {0,
                                            1,
                                            -1,
                                            999,
                                            1000,
                                            1001,
                                            1'500'000,
                                            120'000'000,
                                            1689180453681379000,
                                            -4'000'000'000'000'000'000};
        for (int i = 0; i < 3000; ++i) {
            const int magnitude = static_cast<int>(random() % 19); // 10^0 .. 10^18 ns
            std::int64_t v = static_cast<std::int64_t>(random() % 1'000'000'000'000'000'000u);
            for (int k = 18; k > magnitude; --k)
                v /= 10;
            values.push_back(random() % 2 ? -v : v);
        }
        for (std::int64_t v : values) {
            for (const std::string& text : spellings(v, "")) {
                std::int64_t ns = 7;
                QVERIFY2(parseMicrosecondsToNs(text, ns), text.c_str());
                QVERIFY2(ns == v, (text + " read as " + std::to_string(ns)).c_str());
            }
        }
    }

    // The first digit past the nanoseconds decides: 5 and up away from zero, below toward it,
    // whatever follows (the digits after it only ever matter as "5 or more" does).
    void aDigitPastTheNanosecondsRounds() {
        std::mt19937_64 random(11);
        for (int i = 0; i < 2000; ++i) {
            std::int64_t v = static_cast<std::int64_t>(random() % 1'000'000'000'000'000u);
            if (random() % 2) v = -v;
            const std::int64_t away = v < 0 ? v - 1 : v + 1;
            for (const auto& [extra, expected] : std::vector<std::pair<std::string, std::int64_t>>{
                     {"5", away}, {"49999", v}, {"50001", away}, {"9", away}, {"0", v}}) {
                for (const std::string& text : spellings(v, extra)) {
                    std::int64_t ns = 7;
                    QVERIFY2(parseMicrosecondsToNs(text, ns), text.c_str());
                    QVERIFY2(ns == expected,
                             (text + " read as " + std::to_string(ns) + ", not " + std::to_string(expected))
                                 .c_str());
                }
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestNumberParse)
#include "test_NumberParse.moc"
