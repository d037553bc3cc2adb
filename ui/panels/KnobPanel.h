#pragma once
#include "KnobPresets.h"
#include "sim/Knobs.h"

#include <QWidget>

#include <map>
#include <memory>
#include <string>
#include <vector>

class QComboBox;
class QLabel;
class QFormLayout;

namespace sl {
struct KnobSpec;
struct ParallelStructure; // structure/Structure.h
} // namespace sl

class QAbstractSpinBox;

namespace sl::ui {

class CpuRegionEditor;
class ScenarioList;

// The what-if knobs, a reset, and the presets (built-in ones and those shipped in resources/presets).
// One field per knob of the knob registry (sim/KnobRegistry.h), grouped (GPU, network, CPU, data
// parallel, job setup, hardware), built from its row: spin box, check box or list, range, unit,
// "from trace"-style special value, and help text with the valid range in the tooltip; plus the
// cpu.speedup[<regex>] editor. It holds no knobs of its own: it shows and edits the knobs of the
// current scenario of a ScenarioList (ui/model/Scenario.h; an edit goes to the list, which decides
// where: an edit of the baseline starts a what-if), and emits changed() whenever the knobs it shows
// change. Knobs of the families without a field here (per-class speedups, per-collective
// parameters, ...) stay in the scenario: knobs() returns them with the fields' values on top.
class KnobPanel : public QWidget {
    Q_OBJECT
public:
    explicit KnobPanel(QWidget* parent = nullptr);
    // The scenarios whose current one the panel shows and edits. Until it is given one (a panel on
    // its own) it edits a list of its own.
    void setScenarios(ScenarioList* list);
    SimKnobs knobs() const;
    // Gives the current scenario these knobs (what an edit of every field does).
    void setKnobs(const SimKnobs& knobs);
    // While an edit of the panel (a field, setKnobs) goes to the list: the list's signals then
    // announce knobs the panel shows already.
    bool editing() const { return editing_; }
    // The straggler rank may name any rank of the simulated job: the loaded ranks (by their ids,
    // which need not be 0..N-1), or under dp.degree the ranks of its job (largestJobRankId of the
    // set's layout, sim/JobRankIds.h). The limit follows the dp.degree field.
    void setJobLayout(const ParallelStructure& layout);
    const std::vector<KnobPreset>& presets() const { return presets_; }
    QComboBox* presetBox() const { return presetBox_; }
    // Applies presets()[i] (what choosing it in the list does; the "Custom" entry after the presets
    // changes nothing).
    void applyPreset(int i);
    // The preset box's text: the name of the preset whose knobs equal knobs(), else "Custom".
    QString presetLabel() const;
    // Notes of knobs that could not apply to the trace (analysis/StepExplanation.h knobNotes), shown
    // under their fields; a note of a knob without a field goes under the last field.
    void setKnobNotes(const std::map<std::string, std::string>& notes);
    // The note shown under a knob's field (empty: none).
    QString knobNote(const QString& key) const;
    // The cpu.speedup[<regex>] rows.
    CpuRegionEditor* cpuRegions() const { return regions_; }
    // The field of a registry knob ("compute.speedup"), nullptr when the panel has none.
    QWidget* field(const QString& key) const;

signals:
    void changed(sl::SimKnobs knobs);

private:
    struct Field {
        const KnobSpec* spec = nullptr;
        QWidget* widget = nullptr;
        QString shown; // the field's text when setKnobs() filled it
        QLabel* note = nullptr;
    };
    QWidget* makeField(const KnobSpec& spec);
    void commitWhenDone(QAbstractSpinBox* box);
    static constexpr int kTypingPauseMs = 800; // a pause of typing commits a number field
    static void showValue(const Field& f, const SimKnobs& k);
    static QString fieldText(const Field& f);
    static void readValue(const Field& f, SimKnobs& k);
    void emitChanged();
    // The current scenario's knobs, shown (the fields refilled unless the edit came from them).
    void showCurrent();
    void fill(const SimKnobs& k);
    const SimKnobs& current() const;
    void showMatchingPreset(const SimKnobs& knobs);
    void updateRankLimit(const SimKnobs& k);

    std::vector<Field> fields_;
    CpuRegionEditor* regions_ = nullptr;
    QFormLayout* form_ = nullptr;
    QComboBox* presetBox_ = nullptr;
    QLabel* otherNotes_ = nullptr;
    std::vector<KnobPreset> presets_;
    ScenarioList* list_ = nullptr;
    bool updating_ = false; // the fields are being filled: no edit
    bool editing_ = false;  // the list takes an edit of the fields: they show it already
    std::shared_ptr<const ParallelStructure> layout_; // of the open set; null: no limit set
};

} // namespace sl::ui
