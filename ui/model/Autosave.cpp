#include "Autosave.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSaveFile>
#include <QStandardPaths>
#include <QTimer>

namespace sl::ui {

Autosave::Autosave(std::function<Session()> source, const QString& dir, int intervalMs, QObject* parent)
    : QObject(parent), source_(std::move(source)),
      dir_(dir.isEmpty() ? QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) : dir),
      timer_(new QTimer(this)) {
    timer_->setSingleShot(true);
    timer_->setInterval(intervalMs);
    connect(timer_, &QTimer::timeout, this, [this] { saveNow(); });
}

Autosave::~Autosave() = default;

QString Autosave::sessionPath() const {
    return QDir(dir_).filePath(QStringLiteral("autosave") + QLatin1String(Session::kSuffix));
}

QString Autosave::recoveredPath() const {
    return QDir(dir_).filePath(QStringLiteral("recovered") + QLatin1String(Session::kSuffix));
}

QString Autosave::markerPath() const {
    return QDir(dir_).filePath(QStringLiteral("running"));
}

QString Autosave::closedMarkerPath() const {
    return QDir(dir_).filePath(QStringLiteral("recovered-closed"));
}

void Autosave::start() {
    QDir().mkpath(dir_);
    // A newer crash's autosave replaces an older undecided one (it holds the later work); without
    // one, an undecided recovered session from an earlier start is offered again.
    if (QFile::exists(markerPath()) && QFile::exists(sessionPath())) {
        QFile::remove(recoveredPath());
        QFile::remove(closedMarkerPath());
        QFile::rename(sessionPath(), recoveredPath());
    }
    recoverable_ = QFile::exists(recoveredPath());
    recoveredFromClose_ = recoverable_ && QFile::exists(closedMarkerPath());
    QSaveFile marker(markerPath());
    if (marker.open(QIODevice::WriteOnly)) {
        marker.write(QByteArray::number(QCoreApplication::applicationPid()));
        marker.commit();
    }
    running_ = true;
}

void Autosave::finish() {
    if (!running_) return;
    timer_->stop();
    if (dirty_) saveNow();
    QFile::remove(markerPath());
    running_ = false;
}

void Autosave::finishKeepingWork() {
    if (!running_) return;
    timer_->stop();
    if (saveNow().isEmpty()) {
        QFile::remove(recoveredPath());
        QFile::rename(sessionPath(), recoveredPath());
        QSaveFile closed(closedMarkerPath());
        if (closed.open(QIODevice::WriteOnly)) closed.commit();
    }
    QFile::remove(markerPath());
    running_ = false;
}

void Autosave::dropRecovered() {
    QFile::remove(recoveredPath());
    QFile::remove(closedMarkerPath());
    recoverable_ = recoveredFromClose_ = false;
}

void Autosave::markDirty() {
    dirty_ = true;
    if (running_ && !timer_->isActive()) timer_->start();
}

QString Autosave::saveNow() {
    QDir().mkpath(dir_);
    const QString error = writeSessionFile(sessionPath(), source_());
    if (!error.isEmpty()) {
        emit failed(error);
        return error;
    }
    dirty_ = false;
    emit saved(sessionPath());
    return {};
}

} // namespace sl::ui
