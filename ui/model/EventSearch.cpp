#include "EventSearch.h"

#include <algorithm>

namespace sl::ui {

void EventSearch::clear() {
    matches_.clear();
    hits_.clear();
    current_ = -1;
    truncated_ = false;
}

std::size_t EventSearch::search(const TimelineData& data, const QString& text, std::size_t maxMatches,
                                bool wholeName) {
    clear();
    if (text.isEmpty()) return 0;
    const QByteArray utf8 = text.toUtf8();
    const std::string_view exact(utf8.constData(), static_cast<std::size_t>(utf8.size()));
    hits_.resize(data.ranks().size());
    for (std::size_t r = 0; r < data.ranks().size() && !truncated_; ++r) {
        const RankTimeline& rt = data.ranks()[r];
        const StringTable& strings = rt.rank->strings;
        std::vector<bool>& hit = hits_[r];
        hit.assign(strings.size(), false);
        for (std::size_t s = 1; s < strings.size(); ++s) {
            const std::string_view name = strings.str(static_cast<StringId>(s));
            hit[s] = wholeName ? name == exact
                               : QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()))
                                     .contains(text, Qt::CaseInsensitive);
        }
        for (std::size_t k = 0; k < rt.tracks.size() && !truncated_; ++k) {
            const TrackTimeline& t = rt.tracks[k];
            const EventColumns& ev = t.track->events;
            for (std::size_t i = 0; i < ev.size(); ++i) {
                if (!hit[ev.name[i]] || t.start[i] < 0) continue;
                if (matches_.size() >= maxMatches) {
                    truncated_ = true;
                    break;
                }
                matches_.push_back(
                    {t.start[i],
                     {static_cast<int>(r), {static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(i)}}});
            }
        }
    }
    std::stable_sort(matches_.begin(), matches_.end(),
                     [](const Match& a, const Match& b) { return a.start < b.start; });
    return matches_.size();
}

void EventSearch::seek(TimeNs t) {
    auto it = std::lower_bound(matches_.begin(), matches_.end(), t,
                               [](const Match& m, TimeNs v) { return m.start < v; });
    current_ = static_cast<int>(it - matches_.begin()) - 1;
}

bool EventSearch::setCurrent(EventId e) {
    for (std::size_t i = 0; i < matches_.size(); ++i)
        if (matches_[i].id == e) {
            current_ = static_cast<int>(i);
            return true;
        }
    return false;
}

EventId EventSearch::next() {
    if (matches_.empty()) return {};
    current_ = (current_ + 1) % static_cast<int>(matches_.size());
    return matches_[static_cast<std::size_t>(current_)].id;
}

EventId EventSearch::previous() {
    if (matches_.empty()) return {};
    const int n = static_cast<int>(matches_.size());
    current_ = current_ <= 0 ? n - 1 : current_ - 1;
    return matches_[static_cast<std::size_t>(current_)].id;
}

} // namespace sl::ui
