#include "KnobLabels.h"

#include <QCoreApplication>

namespace sl::ui {

QString knobGroupHeading(KnobGroup group) {
    return QCoreApplication::translate("KnobLabels", sl::knobGroupName(group));
}

QString knobLabel(const KnobSpec& spec) {
    return spec.label.empty() ? QString::fromStdString(spec.key)
                              : QCoreApplication::translate("KnobLabels", spec.label.c_str());
}

} // namespace sl::ui
