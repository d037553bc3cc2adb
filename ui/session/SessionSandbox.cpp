// A lesson's sandbox (docs/Lessons.md, "Sandbox"): the user's session put aside while a lesson
// edits knobs and scenarios, and brought back when it ends.
#include "SessionController.h"

#include "ScenarioController.h"

namespace sl::ui {

void SessionController::beginSandbox() {
    if (sandbox_) return;
    sandbox_ = Sandbox{currentSession(), sessionPath_, modified_};
    // The lesson starts from the replay, on a list of its own.
    scenarios_->restore({}, 0, SimKnobs{});
}

void SessionController::endSandbox() {
    if (!sandbox_) return;
    const Sandbox kept = std::move(*sandbox_);
    sandbox_.reset();
    if (kept.user.traces.isEmpty()) {
        // Nothing was open before the lesson: its trace stays, without the lesson's scenarios.
        scenarios_->restore({}, 0, SimKnobs{});
        setModified(false);
        return;
    }
    applySession(kept.user, kept.path);
    if (pending_) {
        pending_->modified = kept.modified; // the traces load first; the flag comes back then
        return;
    }
    setModified(kept.modified);
}

} // namespace sl::ui
