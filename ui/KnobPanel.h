#pragma once
#include "KnobPresets.h"
#include "sim/Knobs.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;
class QFormLayout;

namespace sl::ui {

// The what-if knobs with ranges and units, a reset, and the presets (built-in ones and those shipped
// in resources/presets). Emits changed() with the knobs on every edit (the owner debounces and
// re-simulates). Knobs without a widget here (per-class speedups, the collective model, ...) that
// came from a preset or a session are kept: knobs() returns them with the widgets' values on top.
class CpuRegionEditor;

class KnobPanel : public QWidget {
    Q_OBJECT
public:
    explicit KnobPanel(QWidget* parent = nullptr);
    SimKnobs knobs() const;
    void setKnobs(const SimKnobs& knobs);
    void setRankCount(int ranks);
    const std::vector<KnobPreset>& presets() const { return presets_; }
    QComboBox* presetBox() const { return presetBox_; }
    // Applies presets()[i] (what choosing it in the list does).
    void applyPreset(int i);
    // The cpu.speedup[<regex>] rows.
    CpuRegionEditor* cpuRegions() const { return regions_; }

signals:
    void changed(sl::SimKnobs knobs);

private:
    QDoubleSpinBox* addSpeedup(const QString& label, const QString& tip);
    void emitChanged();
    void showMatchingPreset(const SimKnobs& knobs);

    QDoubleSpinBox* compute_ = nullptr;
    QDoubleSpinBox* comm_ = nullptr;
    QDoubleSpinBox* cpu_ = nullptr;
    QDoubleSpinBox* launch_ = nullptr;
    QCheckBox* overlap_ = nullptr;
    QSpinBox* stragglerRank_ = nullptr;
    QDoubleSpinBox* stragglerSlowdown_ = nullptr;
    QDoubleSpinBox* dpScale_ = nullptr;
    CpuRegionEditor* regions_ = nullptr;
    QFormLayout* form_ = nullptr;
    QComboBox* presetBox_ = nullptr;
    std::vector<KnobPreset> presets_;
    SimKnobs base_;
    bool updating_ = false;
};

} // namespace sl::ui
