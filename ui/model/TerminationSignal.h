#pragma once
// SIGTERM and SIGHUP (the session manager at log-out, `kill`) delivered to the event loop: a signal
// handler may only write a byte to a pipe, and a socket notifier turns that byte into a call on the
// GUI thread, where the window can keep the user's work (MainWindow::endBySignal).
#include <QObject>

#include <functional>

class QSocketNotifier;

namespace sl::ui {

class TerminationSignal : public QObject {
    Q_OBJECT
public:
    // Installs the handlers; `onSignal` runs on the thread of `parent`'s event loop. One instance
    // per process (a second one replaces the first's handlers).
    explicit TerminationSignal(std::function<void()> onSignal, QObject* parent = nullptr);
    ~TerminationSignal() override;
    // False when the pipe or the handlers could not be set up (the signals then end the program as
    // before, without keeping the work).
    bool installed() const { return notifier_ != nullptr; }

private:
    std::function<void()> onSignal_;
    QSocketNotifier* notifier_ = nullptr;
};

} // namespace sl::ui
