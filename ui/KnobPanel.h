#pragma once
#include "sim/Knobs.h"

#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QSpinBox;
class QFormLayout;

namespace sl::ui {

// The what-if knobs with ranges and units, a reset, and a few presets. Emits changed() with the
// knobs on every edit (the owner debounces and re-simulates).
class KnobPanel : public QWidget {
    Q_OBJECT
public:
    explicit KnobPanel(QWidget* parent = nullptr);
    SimKnobs knobs() const;
    void setKnobs(const SimKnobs& knobs);
    void setRankCount(int ranks);

signals:
    void changed(sl::SimKnobs knobs);

private:
    QDoubleSpinBox* addSpeedup(const QString& label, const QString& tip);
    void emitChanged();

    QDoubleSpinBox* compute_ = nullptr;
    QDoubleSpinBox* comm_ = nullptr;
    QDoubleSpinBox* cpu_ = nullptr;
    QDoubleSpinBox* launch_ = nullptr;
    QCheckBox* overlap_ = nullptr;
    QSpinBox* stragglerRank_ = nullptr;
    QDoubleSpinBox* stragglerSlowdown_ = nullptr;
    QDoubleSpinBox* dpScale_ = nullptr;
    QFormLayout* form_ = nullptr;
    bool updating_ = false;
};

} // namespace sl::ui
