#include "NumberCell.h"

#include <QString>
#include <QTableWidgetItem>

namespace sl::ui {

QTableWidgetItem* numberCell(double value, int decimals) {
    auto* item = new QTableWidgetItem;
    item->setData(Qt::DisplayRole, QString::number(value, 'f', decimals).toDouble());
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

} // namespace sl::ui
