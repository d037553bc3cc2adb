#pragma once
// The track layout of each trace set, remembered between runs without a session (docs/ManyRanks.md,
// "Saved"): reopening a 64-rank set brings back its grouping, folded groups, compact rows and which
// ranks were collapsed, keyed by the set's paths. The filter is left out: a set that reopens showing
// part of its ranks would look broken. The settings are the owner's: the program passes its
// QSettings, a test a file of its own, so no test depends on what an earlier run stored.
#include "TrackState.h"

#include <QSettings>
#include <QStringList>

#include <memory>
#include <vector>

namespace sl::ui {

class RankViewMemory {
public:
    // The sets remembered, most recent first; older ones are forgotten.
    static constexpr int kSets = 32;

    explicit RankViewMemory(std::unique_ptr<QSettings> settings);
    void store(const QStringList& paths, const std::vector<TrackState::RankState>& tracks,
               const TrackState::RankView& view);
    // False when the set was not remembered (or what was stored no longer reads).
    bool recall(const QStringList& paths, std::vector<TrackState::RankState>& tracks,
                TrackState::RankView& view) const;

private:
    static QString keyOf(const QStringList& paths);
    std::unique_ptr<QSettings> settings_;
};

} // namespace sl::ui
