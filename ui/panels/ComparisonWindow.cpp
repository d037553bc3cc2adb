#include "ComparisonWindow.h"

#include "NumberCell.h"

#include "DialogDir.h"
#include "SimRunner.h"

#include "base/Error.h"
#include "io/TraceFormat.h"
#include "report/ComparisonReport.h"
#include "report/ReportWriter.h"

#include <QApplication>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sl::ui {

namespace {

QTableWidgetItem* text(const std::string& s) {
    auto* item = new QTableWidgetItem(QString::fromStdString(s));
    item->setToolTip(item->text());
    return item;
}

// Faster green, slower red, within the noise grey (as in the HTML report).
void colourDelta(QTableWidgetItem* item, bool changed, double delta) {
    item->setForeground(!changed    ? QColor(0x86, 0x8e, 0x96)
                        : delta < 0 ? QColor(0x2b, 0x8a, 0x3e)
                                    : QColor(0xc9, 0x2a, 0x2a));
}

QTableWidget* makeTable(const QStringList& headers) {
    auto* t = new QTableWidget(0, static_cast<int>(headers.size()));
    t->setHorizontalHeaderLabels(headers);
    t->setEditTriggers(QAbstractItemView::NoEditTriggers);
    t->setSelectionBehavior(QAbstractItemView::SelectRows);
    t->verticalHeader()->hide();
    // Headers readable in a short bottom tab: every column as wide as its header and the widest
    // of the first rows, the key column taking the rest.
    t->horizontalHeader()->setResizeContentsPrecision(100);
    t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    // Rows come in the report's order (largest change first) until a header is clicked.
    t->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    return t;
}

// Rows {key, before_us, after_us, delta_us, delta_pct, count_before, count_after, noise_us, changed}.
QTableWidget* timeTable(const nlohmann::json& rows, const QString& keyHeader) {
    auto* t = makeTable({keyHeader, "before µs", "after µs", "delta µs", "delta %", "count before",
                         "count after", "noise µs"});
    t->setRowCount(static_cast<int>(rows.size()));
    int r = 0;
    for (const auto& row : rows) {
        const bool changed = row.value("changed", false);
        const double d = row.value("delta_us", 0.0);
        t->setItem(r, 0, text(row.value("key", "")));
        t->setItem(r, 1, numberCell(row.value("before_us", 0.0)));
        t->setItem(r, 2, numberCell(row.value("after_us", 0.0)));
        for (int c : {3, 4}) {
            QTableWidgetItem* item = numberCell(row.value(c == 3 ? "delta_us" : "delta_pct", 0.0));
            colourDelta(item, changed, d);
            t->setItem(r, c, item);
        }
        t->setItem(r, 5, numberCell(row.value("count_before", 0.0), 0));
        t->setItem(r, 6, numberCell(row.value("count_after", 0.0), 0));
        t->setItem(r, 7, numberCell(row.value("noise_us", 0.0)));
        ++r;
    }
    t->setSortingEnabled(true);
    return t;
}

QTableWidget* rankTable(const nlohmann::json& ranks) {
    static const char* kFigures[] = {"iteration", "compute", "communication", "exposed_comm", "idle", "wait"};
    QStringList headers{"rank"};
    for (const char* f : kFigures)
        headers << QString("%1 before µs").arg(f) << QString("%1 after µs").arg(f);
    headers << "aligned %";
    auto* t = makeTable(headers);
    t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    t->setRowCount(static_cast<int>(ranks.size()));
    int r = 0;
    for (const auto& rank : ranks) {
        t->setItem(r, 0, numberCell(rank.value("rank", 0.0), 0));
        int c = 1;
        for (const char* f : kFigures) {
            const nlohmann::json fig = rank.value(f, nlohmann::json::object());
            t->setItem(r, c++, numberCell(fig.value("before_us", 0.0)));
            QTableWidgetItem* after = numberCell(fig.value("after_us", 0.0));
            colourDelta(after, fig.value("changed", false), fig.value("delta_us", 0.0));
            t->setItem(r, c++, after);
        }
        t->setItem(r, c, numberCell(rank.value("aligned_pct", 0.0), 1));
        ++r;
    }
    t->setSortingEnabled(true);
    return t;
}

// Predicted vs actual: per rank, then per class, then the worst-predicted kernels, one table.
QTableWidget* predictionTable(const nlohmann::json& p) {
    auto* t = makeTable({"what", "before µs", "predicted µs", "actual µs", "error %", "no-change error %"});
    std::vector<std::tuple<std::string, double, double, double, double, double>> rows;
    const nlohmann::json it = p.value("iteration", nlohmann::json::object());
    rows.emplace_back("iteration (job)", it.value("before_us", 0.0), it.value("predicted_us", 0.0),
                      it.value("actual_us", 0.0), it.value("error_pct", 0.0),
                      it.value("unchanged_error_pct", 0.0));
    for (const auto& r : p.value("ranks", nlohmann::json::array())) {
        const double before = r.value("before_us", 0.0), actual = r.value("actual_us", 0.0);
        rows.emplace_back("iteration rank " + std::to_string(r.value("rank", 0)), before,
                          r.value("predicted_us", 0.0), actual, r.value("error_pct", 0.0),
                          actual > 0 ? 100.0 * std::abs(before - actual) / actual : 0.0);
    }
    for (const char* section : {"by_class", "worst_kernels"})
        for (const auto& r : p.value(section, nlohmann::json::array()))
            rows.emplace_back(std::string(section[0] == 'b' ? "class " : "kernel ") + r.value("key", ""),
                              r.value("before_us", 0.0), r.value("predicted_us", 0.0),
                              r.value("actual_us", 0.0), r.value("error_pct", 0.0),
                              r.value("unchanged_error_pct", 0.0));
    t->setRowCount(static_cast<int>(rows.size()));
    for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
        const auto& [key, before, predicted, actual, err, unchanged] = rows[static_cast<std::size_t>(r)];
        t->setItem(r, 0, text(key));
        t->setItem(r, 1, numberCell(before));
        t->setItem(r, 2, numberCell(predicted));
        t->setItem(r, 3, numberCell(actual));
        t->setItem(r, 4, numberCell(err));
        t->setItem(r, 5, numberCell(unchanged));
    }
    t->setSortingEnabled(true);
    return t;
}

} // namespace

ComparisonWindow::ComparisonWindow(QStringList openPaths, QStringList paths, QWidget* parent)
    : QWidget(parent, Qt::Window), openPaths_(std::move(openPaths)), paths_(std::move(paths)) {
    setAttribute(Qt::WA_DeleteOnClose);
    setWindowTitle(tr("Comparison: %1").arg(ComparisonRun::runName(paths_)));
    resize(1100, 640);
    auto* layout = new QVBoxLayout(this);
    verdict_ = new QLabel(tr("Loading %1 and aligning it with the open run...").arg(paths_.join(", ")));
    verdict_->setWordWrap(true);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    note_ = new QLabel;
    note_->setWordWrap(true);
    note_->setStyleSheet("color: palette(mid)");
    tabs_ = new QTabWidget;
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    save_ = buttons->addButton(tr("Save Report..."), QDialogButtonBox::ActionRole);
    save_->setEnabled(false);
    connect(buttons, &QDialogButtonBox::rejected, this, &QWidget::close);
    connect(save_, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("Save comparison report"), dialogDir("comparison.html"),
                                         tr("HTML page (*.html);;CSV (*.csv);;JSON (*.json)"));
        if (path.isEmpty()) return;
        rememberDir(path);
        const QString err = saveReport(path);
        if (!err.isEmpty()) QMessageBox::warning(this, tr("Save report"), err);
    });
    layout->addWidget(verdict_);
    layout->addWidget(note_);
    layout->addWidget(tabs_, 1);
    layout->addWidget(buttons);
}

ComparisonWindow::ComparisonWindow(std::shared_ptr<const ExecutionGraph> graph,
                                   std::shared_ptr<const SimResult> simulation, const SimKnobs& knobs,
                                   QStringList openPaths, QStringList paths, QWidget* parent)
    : ComparisonWindow(std::move(openPaths), std::move(paths), parent) {
    // Closing the window mid-load cancels the job (the loader stops at its next piece).
    job_.start(
        [graph = std::move(graph), simulation = std::move(simulation), knobs, open = openPaths_,
         p = paths_](const JobControl& control) {
            return loadComparisonRun(nullptr, graph, simulation, knobs, open, p, control.cancelFlag());
        },
        [this](std::shared_ptr<const ComparisonRun> run) { present(std::move(run)); });
}

ComparisonWindow::ComparisonWindow(std::shared_ptr<const ComparisonRun> run, QWidget* parent)
    : ComparisonWindow(run->openPaths, run->paths, parent) {
    present(std::move(run));
}

void ComparisonWindow::closeEvent(QCloseEvent* event) {
    emit closed();
    QWidget::closeEvent(event);
}

QWidget* ComparisonWindow::placeholder(QWidget* parent) {
    auto* label =
        new QLabel(tr("No comparison run: File > Open Comparison Run... opens a second measured run "
                      "of this program; its tables show here."),
                   parent);
    label->setWordWrap(true);
    label->setAlignment(Qt::AlignCenter);
    label->setObjectName(QStringLiteral("comparisonPlaceholder"));
    return label;
}

QStringList ComparisonWindow::askPaths(QWidget* parent, bool ready) {
    if (!ready) {
        QMessageBox::information(parent, tr("Open Comparison Run"),
                                 tr("Open a trace first and let its details finish: the comparison run is "
                                    "aligned with the open one."));
        return {};
    }
    const QStringList files =
        QFileDialog::getOpenFileNames(parent, tr("Open a comparison run (the same program, measured again)"),
                                      dialogDir(), QString::fromStdString(traceOpenDialogFilter()));
    if (!files.isEmpty()) rememberDir(files.front());
    return files;
}

void ComparisonWindow::present(std::shared_ptr<const ComparisonRun> run) {
    run_ = std::move(run);
    const nlohmann::json& report = run_->report;
    const QString& error = run_->error;
    report_ = report;
    error_ = error;
    finished_ = true;
    if (!error.isEmpty()) {
        verdict_->setText(error);
        verdict_->setStyleSheet("color: #c92a2a");
        report_ = nlohmann::json();
        emit done();
        return;
    }
    verdict_->setText(QString::fromStdString(report.value("verdict", "")));
    const nlohmann::json al = report.value("alignment", nlohmann::json::object());
    note_->setText(tr("%1; ranks paired by %2. Run-to-run noise: kernels vary by ±%3% between the runs; "
                      "grey deltas are within a row's noise.")
                       .arg(QString::fromStdString(al.value("note", "")),
                            QString::fromStdString(report.value("ranks_paired_by", "")))
                       .arg(report.value("noise_pct", 0.0), 0, 'f', 2));
    tabs_->addTab(rankTable(report.value("ranks", nlohmann::json::array())), tr("Ranks"));
    tabs_->addTab(timeTable(report.value("by_class", nlohmann::json::array()), tr("kernel class")),
                  tr("Classes"));
    tabs_->addTab(timeTable(report.value("by_kernel", nlohmann::json::array()), tr("kernel")), tr("Kernels"));
    tabs_->addTab(timeTable(report.value("by_cpu_op", nlohmann::json::array()), tr("launching CPU op")),
                  tr("CPU ops"));
    if (report.contains("prediction"))
        tabs_->addTab(predictionTable(report["prediction"]), tr("Predicted vs actual"));
    // A row jumps to its op in both panes of the main window (the largest change of the row): a
    // click, or moving through the rows with the keys (not the current row a table gets with focus).
    for (int i = 0; i < tabs_->count(); ++i) {
        auto* t = qobject_cast<QTableWidget*>(tabs_->widget(i));
        const QString tab = tabs_->tabText(i);
        auto jump = [this, t, tab](int row) {
            if (row >= 0 && t->item(row, 0)) emit jumpRequested(tab, t->item(row, 0)->text());
        };
        connect(t, &QTableWidget::cellClicked, this, [jump](int row, int) { jump(row); });
        connect(t, &QTableWidget::currentCellChanged, this, [t, jump](int row, int, int previous) {
            if (previous >= 0 && row != previous && t->hasFocus() &&
                !(QApplication::mouseButtons() & Qt::LeftButton))
                jump(row);
        });
    }
    save_->setEnabled(true);
    emit done();
}

QTableWidget* ComparisonWindow::table(const QString& tabName) const {
    for (int i = 0; i < tabs_->count(); ++i)
        if (tabs_->tabText(i) == tabName) return qobject_cast<QTableWidget*>(tabs_->widget(i));
    return nullptr;
}

QString ComparisonWindow::verdictText() const {
    return verdict_->text();
}

QString ComparisonWindow::saveReport(const QString& path) const {
    if (report_.is_null()) return tr("nothing to save: the comparison did not finish");
    const auto format = reportFormatOf(path.toStdString());
    if (!format) return tr("%1: the file name must end in .html, .csv or .json").arg(path);
    try {
        writeTextFile(path.toStdString(), comparisonText(report_, *format));
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

} // namespace sl::ui
