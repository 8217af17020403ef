// The plan wizard's answers: the workload list and what a choice in it shows, each page's checks with the message
// beside its field, and the answers turned into the planner's inputs.
#include "PlanWizard.h"

#include "PlanWizardParts.h"
#include "wording/ErrorText.h"

#include "widgets/CountryPicker.h"
#include "wording/Format.h"
#include "wording/Language.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDate>
#include <QDateTime>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <QSpinBox>

#include <cmath>

namespace gpuplan::ui {

using planwizard::CheckedPage;
using planwizard::kFromFile;
using planwizard::kMeasured;

namespace {

/// The network shape a task usually has, for a measured workload (its efficiency class).
core::ModelClass classForTask(core::TaskType task)
{
    switch (task) {
        case core::TaskType::Vision:
            return core::ModelClass::Cnn;
        case core::TaskType::Detection:
        case core::TaskType::Detection3d:
            return core::ModelClass::Detector;
        case core::TaskType::Nlp:
            return core::ModelClass::Encoder;
        case core::TaskType::Llm:
            return core::ModelClass::Decoder;
    }
    return core::ModelClass::Cnn;
}

/// "3000", "3,000.50" or the locale's way of writing it; 0 when it is not a number.
double parseAmount(const QString& text)
{
    bool ok = false;
    double amount = QLocale::c().toDouble(QString(text).remove(QLatin1Char(',')), &ok);
    if (!ok) {
        amount = QLocale().toDouble(text, &ok);
    }
    return ok && std::isfinite(amount) ? amount : 0;
}

} // namespace

std::optional<double> parseCount(const QString& text)
{
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*([0-9][0-9,]*(?:\\.[0-9]+)?(?:e[+]?[0-9]+)?)\\s*([kmbt]|万|亿)?\\s*$"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch()) {
        return std::nullopt;
    }
    bool ok = false;
    const double number = QLocale::c().toDouble(match.captured(1).remove(QLatin1Char(',')), &ok);
    const QString suffix = match.captured(2).toLower();
    const double factor = suffix == QLatin1String("k")   ? 1e3
                          : suffix == QLatin1String("m") ? 1e6
                          : suffix == QLatin1String("b") ? 1e9
                          : suffix == QLatin1String("t") ? 1e12
                          : suffix == u"万"              ? 1e4
                          : suffix == u"亿"              ? 1e8
                                                         : 1;
    if (!ok || !(number > 0) || !std::isfinite(number * factor)) {
        return std::nullopt;
    }
    return number * factor;
}

std::optional<double> parseDeadline(const QString& text)
{
    static const QRegularExpression pattern(QStringLiteral("^\\s*(\\d+(?:\\.\\d+)?)\\s*([mhdw])\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text.toLower());
    if (!match.hasMatch()) {
        return std::nullopt;
    }
    const double value = match.captured(1).toDouble();
    const QChar unit = match.captured(2).at(0);
    const double factor = unit == u'm' ? 1.0 / 60 : unit == u'h' ? 1 : unit == u'd' ? 24 : 168;
    if (value <= 0) {
        return std::nullopt;
    }
    return value * factor;
}

void PlanWizard::fillWorkloadList()
{
    const QVariant current = m_preset->currentData();
    const QString task = m_task->currentData().toString();
    {
        const QSignalBlocker block(m_preset);
        m_preset->clear();
        for (std::size_t i = 0; i < m_presets.size(); ++i) {
            if (task.isEmpty() || task == QString::fromLatin1(core::taskTypeName(m_presets[i].task))) {
                const core::Workload& w = m_presets[i];
                const bool zh = currentLanguage() == QLatin1String("zh_CN") && !w.nameZh.empty();
                m_preset->addItem(QString::fromStdString(zh ? w.nameZh : w.name), int(i));
            }
        }
        m_preset->insertSeparator(m_preset->count());
        m_preset->addItem(tr("Your own: a throughput you measured"), kMeasured);
        m_preset->addItem(tr("Your own: a workload file…"), kFromFile);
        int selected = current.isValid() ? m_preset->findData(current) : -1;
        if (selected < 0) {
            selected = m_preset->findData(kMeasured) > 1 ? 0 : m_preset->findData(kMeasured); // a preset if any
        }
        m_preset->setCurrentIndex(selected);
    }
    onPresetChanged();
}

void PlanWizard::onPresetChanged()
{
    const int index = m_preset->currentIndex() < 0 ? -1 : m_preset->currentData().toInt();
    const bool preset = index >= 0;
    m_workloadForm->setRowVisible(m_ownMeasurement, preset);
    for (qsizetype i = 0; i < m_measuredRows.size(); ++i) {
        // A preset you timed shows what you measured it at (its unit is the preset's); your own workload, all.
        const bool own = preset && m_ownMeasurement->isChecked() && i < 3;
        m_workloadForm->setRowVisible(m_measuredRows[i], index == kMeasured || own);
    }
    if (preset && std::size_t(index) < m_presets.size()) {
        const bool tokens = m_presets[std::size_t(index)].countsTokens();
        m_measuredUnit->setCurrentIndex(
            m_measuredUnit->findData(tokens ? QStringLiteral("tokens") : QStringLiteral("samples")));
    }
    m_measuredUnit->setEnabled(!preset);
    m_workloadForm->setRowVisible(m_fileRow, index == kFromFile);
    if (auto* page = static_cast<CheckedPage*>(m_pages.value(0))) {
        page->changed();
    }
    if (index == kMeasured) {
        m_presetDescription->setText(tr("Your own run: the throughput you timed on one GPU type is scaled to every "
                                        "other by the ratio of their effective peaks (tensor-core TFLOPS × "
                                        "calibrated efficiency)."));
        return;
    }
    if (index == kFromFile) {
        if (m_fileWorkload) {
            const bool zh = currentLanguage() == QLatin1String("zh_CN") && !m_fileWorkload->descriptionZh.empty();
            m_presetDescription->setText(
                QString::fromStdString(zh ? m_fileWorkload->descriptionZh : m_fileWorkload->description));
        } else {
            m_presetDescription->setText(tr("A workload file as described in docs/workloads.md: FLOPs per sample, a "
                                            "transformer's shape, or a measured throughput."));
        }
        return;
    }
    if (index < 0 || std::size_t(index) >= m_presets.size()) {
        m_presetDescription->clear();
        return;
    }
    const core::Workload& w = m_presets[std::size_t(index)];
    const bool zh = currentLanguage() == QLatin1String("zh_CN") && !w.descriptionZh.empty();
    m_presetDescription->setText(QString::fromStdString(zh ? w.descriptionZh : w.description));
    m_epochs->setValue(w.epochs);
}

void PlanWizard::loadWorkloadFile()
{
    const QString path = m_workloadFile->text().trimmed();
    m_fileWorkload.reset();
    if (path.isEmpty()) {
        m_workloadFileError->hide();
    } else if (core::Result<core::Workload> loaded = core::loadWorkloadFile(path.toStdString())) {
        m_fileWorkload = *loaded;
        m_epochs->setValue(m_fileWorkload->epochs);
        m_stack->setCurrentIndex(
            std::max(0, m_stack->findData(QString::fromLatin1(core::stackName(m_fileWorkload->stack)))));
        m_workloadFileError->hide();
    } else {
        m_workloadFileError->setText(errorMessage(loaded.error()));
        m_workloadFileError->show();
    }
    onPresetChanged();
}

bool PlanWizard::validateWorkloadPage() const
{
    const int index = m_preset->currentIndex() < 0 ? -1 : m_preset->currentData().toInt();
    if (index == kFromFile) {
        return m_fileWorkload.has_value();
    }
    if (index != kMeasured) {
        return true;
    }
    bool ok = true;
    auto check = [&ok](QLineEdit* edit, QLabel* error, bool required, const QString& message) {
        const QString text = edit->text().trimmed();
        const bool valid = text.isEmpty() ? !required : parseCount(text).has_value();
        error->setText(text.isEmpty() ? tr("Required.") : message.arg(text));
        error->setVisible(!valid);
        ok = ok && valid;
    };
    check(m_units, m_unitsError, true, tr("\"%1\" is not a count: write e.g. 1281167, 1.28M or 2B."));
    check(m_parameters, m_parametersError, false, tr("\"%1\" is not a count: write e.g. 25.6M or 7B."));
    check(m_datasetGb, m_datasetError, false, tr("\"%1\" is not a size in GB: write e.g. 150."));
    return ok;
}

std::optional<core::Workload> PlanWizard::chosenWorkload() const
{
    const int index = m_preset->currentIndex() < 0 ? -1 : m_preset->currentData().toInt();
    if (!validateWorkloadPage()) {
        return std::nullopt;
    }
    if (index == kFromFile) {
        core::Workload w = *m_fileWorkload;
        w.epochs = m_epochs->value();
        return w;
    }
    if (index == kMeasured) {
        core::Workload w;
        w.task = core::parseTaskType(m_task->currentData().toString().toStdString()).value_or(core::TaskType::Vision);
        w.modelClass = classForTask(w.task);
        w.kind = core::WorkKind::Measured;
        core::MeasuredThroughput m;
        m.value = m_measuredValue->value();
        m.tokens = m_measuredUnit->currentData().toString() == QLatin1String("tokens");
        m.gpuId = m_measuredGpu->currentData().toString().toStdString();
        m.count = m_measuredCount->value();
        m.precision = core::parsePrecision(m_measuredPrecision->currentData().toString().toStdString())
                          .value_or(core::Precision::Amp);
        w.measured = m;
        (m.tokens ? w.tokensPerEpoch : w.samplesPerEpoch) = *parseCount(m_units->text());
        w.epochs = m_epochs->value();
        if (std::optional<double> parameters = parseCount(m_parameters->text())) {
            w.model.parameters = *parameters;
        }
        w.datasetGb = parseCount(m_datasetGb->text());
        w.id = "measured";
        w.name = tr("Measured: %1 %2 on %3 × %4")
                     .arg(formatNumber(m.value, m.value < 100 ? 1 : 0), m_measuredUnit->currentText())
                     .arg(m.count)
                     .arg(m_measuredGpu->currentText())
                     .toStdString();
        return w;
    }
    if (index < 0 || std::size_t(index) >= m_presets.size()) {
        return std::nullopt;
    }
    core::Workload w = m_presets[std::size_t(index)];
    w.epochs = m_epochs->value();
    return w;
}

std::optional<core::CalibrationCase> PlanWizard::ownMeasurement(const core::Workload& preset) const
{
    const int index = m_preset->currentIndex() < 0 ? -1 : m_preset->currentData().toInt();
    if (index < 0 || !m_ownMeasurement->isChecked()) {
        return std::nullopt;
    }
    core::CalibrationCase c;
    const QString gpu = m_measuredGpu->currentData().toString();
    const QString stamp = QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    c.id = QStringLiteral("user-%1-%2-%3").arg(QString::fromStdString(preset.id), gpu, stamp).toStdString();
    c.workloadId = preset.id;
    c.model = preset.name;
    c.modelClass = preset.modelClass;
    c.gpuId = gpu.toStdString();
    c.count = m_measuredCount->value();
    c.gpusPerNode = std::min(c.count, 8);
    c.precision = core::parsePrecision(m_measuredPrecision->currentData().toString().toStdString())
                      .value_or(core::Precision::Amp);
    c.stack = preset.stack;
    c.measured = m_measuredValue->value();
    c.tokens = preset.countsTokens();
    c.group = "user";
    c.user = true;
    const std::string today = QDate::currentDate().toString(Qt::ISODate).toStdString();
    c.source = {.url = "https://gpuplanner.invalid/your-measurement",
                .asOf = today,
                .retrieved = today,
                .note = "your own measurement, entered in the plan wizard"};
    return c;
}

bool PlanWizard::validateBudgetPage() const
{
    bool ok = true;
    const QString budget = m_budget->text().trimmed();
    if (!budget.isEmpty() && !(parseAmount(budget) > 0)) {
        m_budgetError->setText(tr("Write an amount above zero, e.g. 3000, or leave it empty for no limit."));
        m_budgetError->show();
        ok = false;
    } else {
        m_budgetError->hide();
    }
    const QString deadline = m_deadline->text().trimmed();
    if (!deadline.isEmpty() && !parseDeadline(deadline)) {
        m_deadlineError->setText(tr("\"%1\" is not a duration: write e.g. 14d, 36h, 90m or 2w.").arg(deadline));
        m_deadlineError->show();
        ok = false;
    } else {
        m_deadlineError->hide();
    }
    return ok;
}

std::optional<PlanInputs> PlanWizard::inputs() const
{
    std::optional<core::Workload> workload = chosenWorkload();
    if (!workload || !validateBudgetPage() || !m_countries->countries()) {
        return std::nullopt;
    }
    PlanInputs in;
    in.workload = std::move(*workload);
    if (const std::optional<core::SoftwareStack> stack =
            core::parseStack(m_stack->currentData().toString().toStdString())) {
        in.workload.stack = *stack;
    }
    in.measurement = ownMeasurement(in.workload);
    core::Constraints& c = in.constraints;
    if (const QString budget = m_budget->text().trimmed(); !budget.isEmpty()) {
        c.budget = parseAmount(budget);
    }
    c.currency =
        m_currency->currentData().toString() == QLatin1String("USD") ? core::Currency::USD : core::Currency::CNY;
    if (const QString deadline = m_deadline->text().trimmed(); !deadline.isEmpty()) {
        c.deadlineHours = parseDeadline(deadline);
    }
    const QString precision = m_precision->currentData().toString();
    if (!precision.isEmpty()) {
        c.precision = core::parsePrecision(precision.toStdString());
    }
    c.framework = m_framework->currentData().toString().toStdString();
    c.sensitive = m_sensitive->isChecked();
    c.countries = m_countries->countries().value_or(std::vector<std::string>{});
    c.minGpus = m_minGpus->value();
    c.maxGpus = m_maxGpus->value();
    c.multiNode = m_multiNode->isChecked();
    c.requireRdma = m_rdma->isChecked();
    if (!(m_onDemand->isChecked() && m_spot->isChecked() && m_reserved->isChecked() && m_subscription->isChecked())) {
        if (m_onDemand->isChecked()) {
            c.modes.push_back(core::PricingMode::OnDemand);
        }
        if (m_spot->isChecked()) {
            c.modes.push_back(core::PricingMode::Spot);
        }
        if (m_reserved->isChecked()) {
            c.modes.push_back(core::PricingMode::Reserved1Year);
            c.modes.push_back(core::PricingMode::Reserved3Year);
        }
        if (m_subscription->isChecked()) {
            c.modes.push_back(core::PricingMode::SubscriptionMonthly);
            c.modes.push_back(core::PricingMode::SubscriptionYearly);
        }
    }
    // Only the length the user gives: the deadline is when this run must be done, not how long the lab pays.
    c.projectMonths = m_projectMonths->value();
    c.top = 100; // the Compare view shows every eligible offer, ranked
    return in;
}

} // namespace gpuplan::ui
