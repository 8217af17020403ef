#include "PlanWizard.h"

#include "AppSettings.h"
#include "Language.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace gpuplan::ui {

namespace {

/// A page whose Next/Finish waits for `valid` (re-checked whenever a field changes).
class CheckedPage final : public QWizardPage
{
public:
    CheckedPage(QString name, std::function<bool()> valid)
        : m_valid(std::move(valid))
    {
        setObjectName(std::move(name));
    }
    bool isComplete() const override { return !m_valid || m_valid(); }
    void changed() { emit completeChanged(); }

private:
    std::function<bool()> m_valid;
};

QLabel* errorLabel(const QString& name, QWidget* parent)
{
    auto* label = new QLabel(parent);
    label->setObjectName(name);
    label->setStyleSheet(QStringLiteral("color: #c62828;"));
    label->setWordWrap(true);
    label->hide();
    return label;
}

/// A field with its error message right beside it.
QWidget* withError(QWidget* field, QLabel* error, QWidget* extra = nullptr)
{
    auto* box = new QWidget;
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(field);
    if (extra) {
        row->addWidget(extra);
    }
    row->addWidget(error, 1);
    return box;
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

PlanWizard::PlanWizard(QWidget* parent)
    : QWizard(parent)
{
    setObjectName(QStringLiteral("planWizard"));
    setWizardStyle(QWizard::ClassicStyle);
    setOption(QWizard::HaveFinishButtonOnEarlyPages, true);
    setOption(QWizard::NoCancelButton, true);
    button(QWizard::NextButton)->setObjectName(QStringLiteral("wizardNextButton"));
    button(QWizard::BackButton)->setObjectName(QStringLiteral("wizardBackButton"));
    button(QWizard::FinishButton)->setObjectName(QStringLiteral("wizardFinishButton"));

    auto label = [this](const char* name) {
        auto* l = new QLabel(this);
        l->setObjectName(QString::fromLatin1(name));
        m_labels << l;
        return l;
    };

    // 1. Task and workload, amount of work.
    auto* workload = new CheckedPage(QStringLiteral("workloadPage"), {});
    m_task = new QComboBox(workload);
    m_task->setObjectName(QStringLiteral("taskComboBox"));
    m_preset = new QComboBox(workload);
    m_preset->setObjectName(QStringLiteral("presetComboBox"));
    m_presetDescription = new QLabel(workload);
    m_presetDescription->setObjectName(QStringLiteral("presetDescriptionLabel"));
    m_presetDescription->setWordWrap(true);
    m_epochs = new QDoubleSpinBox(workload);
    m_epochs->setObjectName(QStringLiteral("epochsSpinBox"));
    m_epochs->setRange(0.01, 10000);
    m_epochs->setDecimals(2);
    auto* workloadForm = new QFormLayout(workload);
    workloadForm->addRow(label("taskLabel"), m_task);
    workloadForm->addRow(label("presetLabel"), m_preset);
    workloadForm->addRow(QString(), m_presetDescription);
    m_epochsLabel = label("epochsLabel");
    workloadForm->addRow(m_epochsLabel, m_epochs);

    // 2. Precision and framework.
    auto* training = new CheckedPage(QStringLiteral("trainingPage"), {});
    m_precision = new QComboBox(training);
    m_precision->setObjectName(QStringLiteral("precisionComboBox"));
    m_framework = new QComboBox(training);
    m_framework->setObjectName(QStringLiteral("frameworkComboBox"));
    for (const char* f : {"pytorch", "tensorflow", "jax", "paddle", "mindspore"}) {
        m_framework->addItem(QString::fromLatin1(f), QString::fromLatin1(f));
    }
    auto* trainingForm = new QFormLayout(training);
    trainingForm->addRow(label("precisionLabel"), m_precision);
    trainingForm->addRow(label("frameworkLabel"), m_framework);

    // 3. Budget and deadline.
    auto* budget = new CheckedPage(QStringLiteral("budgetPage"), [this] { return validateBudgetPage(); });
    m_budget = new QLineEdit(budget);
    m_budget->setObjectName(QStringLiteral("budgetEdit"));
    m_budgetError = errorLabel(QStringLiteral("budgetErrorLabel"), budget);
    m_currency = new QComboBox(budget);
    m_currency->setObjectName(QStringLiteral("currencyComboBox"));
    m_currency->addItem(QStringLiteral("CNY ¥"), QStringLiteral("CNY"));
    m_currency->addItem(QStringLiteral("USD $"), QStringLiteral("USD"));
    m_currency->setCurrentIndex(std::max(0, m_currency->findData(AppSettings().displayCurrency())));
    m_deadline = new QLineEdit(budget);
    m_deadline->setObjectName(QStringLiteral("deadlineEdit"));
    m_deadlineError = errorLabel(QStringLiteral("deadlineErrorLabel"), budget);
    auto* budgetForm = new QFormLayout(budget);
    budgetForm->addRow(label("budgetLabel"), withError(m_budget, m_budgetError, m_currency));
    budgetForm->addRow(label("deadlineLabel"), withError(m_deadline, m_deadlineError));
    for (QLineEdit* edit : {m_budget, m_deadline}) {
        connect(edit, &QLineEdit::textChanged, budget, [budget] { budget->changed(); });
    }

    // 4. Data sensitivity and scale.
    auto* scale =
        new CheckedPage(QStringLiteral("scalePage"), [this] { return m_minGpus->value() <= m_maxGpus->value(); });
    m_sensitive = new QCheckBox(scale);
    m_sensitive->setObjectName(QStringLiteral("sensitiveCheckBox"));
    m_minGpus = new QSpinBox(scale);
    m_minGpus->setObjectName(QStringLiteral("minGpusSpinBox"));
    m_minGpus->setRange(1, 512);
    m_maxGpus = new QSpinBox(scale);
    m_maxGpus->setObjectName(QStringLiteral("maxGpusSpinBox"));
    m_maxGpus->setRange(1, 512);
    m_maxGpus->setValue(64);
    m_multiNode = new QCheckBox(scale);
    m_multiNode->setObjectName(QStringLiteral("multiNodeCheckBox"));
    m_multiNode->setChecked(true);
    m_rdma = new QCheckBox(scale);
    m_rdma->setObjectName(QStringLiteral("rdmaCheckBox"));
    m_rdma->setChecked(true);
    auto* scaleForm = new QFormLayout(scale);
    scaleForm->addRow(m_sensitive);
    scaleForm->addRow(label("minGpusLabel"), m_minGpus);
    scaleForm->addRow(label("maxGpusLabel"), m_maxGpus);
    scaleForm->addRow(m_multiNode);
    scaleForm->addRow(m_rdma);
    for (QSpinBox* box : {m_minGpus, m_maxGpus}) {
        connect(box, &QSpinBox::valueChanged, scale, [scale] { scale->changed(); });
    }

    // 5. Pricing modes.
    auto* pricing = new CheckedPage(QStringLiteral("pricingPage"), [this] {
        return m_onDemand->isChecked() || m_spot->isChecked() || m_reserved->isChecked() || m_subscription->isChecked();
    });
    m_onDemand = new QCheckBox(pricing);
    m_onDemand->setObjectName(QStringLiteral("onDemandCheckBox"));
    m_spot = new QCheckBox(pricing);
    m_spot->setObjectName(QStringLiteral("spotCheckBox"));
    m_reserved = new QCheckBox(pricing);
    m_reserved->setObjectName(QStringLiteral("reservedCheckBox"));
    m_subscription = new QCheckBox(pricing);
    m_subscription->setObjectName(QStringLiteral("subscriptionCheckBox"));
    m_projectMonths = new QDoubleSpinBox(pricing);
    m_projectMonths->setObjectName(QStringLiteral("projectMonthsSpinBox"));
    m_projectMonths->setRange(0, 120);
    m_projectMonths->setDecimals(0);
    auto* pricingForm = new QFormLayout(pricing);
    for (QCheckBox* box : {m_onDemand, m_spot, m_reserved, m_subscription}) {
        box->setChecked(true);
        pricingForm->addRow(box);
        connect(box, &QCheckBox::toggled, pricing, [pricing] { pricing->changed(); });
    }
    pricingForm->addRow(label("projectMonthsLabel"), m_projectMonths);

    m_pages = {workload, training, budget, scale, pricing};
    for (QWizardPage* page : m_pages) {
        page->setFinalPage(true); // every answer has a default: Finish works from any page
        addPage(page);
    }
    connect(m_task, &QComboBox::currentIndexChanged, this, [this] {
        const QString task = m_task->currentData().toString();
        m_preset->clear();
        for (std::size_t i = 0; i < m_presets.size(); ++i) {
            if (task.isEmpty() || task == QString::fromLatin1(core::taskTypeName(m_presets[i].task))) {
                const core::Workload& w = m_presets[i];
                const bool zh = currentLanguage() == QLatin1String("zh_CN") && !w.nameZh.empty();
                m_preset->addItem(QString::fromStdString(zh ? w.nameZh : w.name), int(i));
            }
        }
    });
    connect(m_preset, &QComboBox::currentIndexChanged, this, &PlanWizard::onPresetChanged);
    retranslate();
}

void PlanWizard::setPresets(const core::LoadedWorkloads& presets)
{
    m_presets = presets.presets;
    const int task = m_task->currentIndex();
    m_task->setCurrentIndex(-1);
    m_task->setCurrentIndex(std::max(0, task));
}

void PlanWizard::onPresetChanged()
{
    const int index = m_preset->currentData().toInt();
    if (m_preset->currentIndex() < 0 || index < 0 || std::size_t(index) >= m_presets.size()) {
        m_presetDescription->clear();
        return;
    }
    const core::Workload& w = m_presets[std::size_t(index)];
    const bool zh = currentLanguage() == QLatin1String("zh_CN") && !w.descriptionZh.empty();
    m_presetDescription->setText(QString::fromStdString(zh ? w.descriptionZh : w.description));
    m_epochs->setValue(w.epochs);
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
    const int index = m_preset->currentData().toInt();
    if (m_preset->currentIndex() < 0 || index < 0 || std::size_t(index) >= m_presets.size() || !validateBudgetPage()) {
        return std::nullopt;
    }
    PlanInputs in;
    in.workload = m_presets[std::size_t(index)];
    in.workload.epochs = m_epochs->value();
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
    c.projectMonths = m_projectMonths->value();
    if (c.projectMonths == 0 && c.deadlineHours) {
        c.projectMonths = *c.deadlineHours / 730;
    }
    c.top = 100; // the Compare view shows every eligible offer, ranked
    return in;
}

void PlanWizard::done(int result)
{
    // Embedded in the Plan page: Finish plans, and the wizard stays where it is.
    if (result == QDialog::Accepted) {
        if (std::optional<PlanInputs> answers = inputs()) {
            emit planRequested(*answers);
        }
    }
}

void PlanWizard::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QWizard::changeEvent(event);
}

void PlanWizard::retranslate()
{
    setWindowTitle(tr("New plan"));
    const QStringList titles{
        tr("Workload"), tr("Precision and framework"), tr("Budget and deadline"), tr("Data and scale"), tr("Pricing")};
    const QStringList subtitles{
        tr("What is trained, and for how long. Presets cite where their figures come from."),
        tr("Lower precision runs faster on tensor cores; some clouds do not run every framework."),
        tr("Offers over the budget or past the deadline are left out, each with the reason."),
        tr("Sensitive data goes only to isolated or certified offers. More GPUs finish sooner but scale imperfectly."),
        tr("Which ways of paying to compare. Reservations and subscriptions need a project long enough for them.")};
    for (int i = 0; i < m_pages.size(); ++i) {
        m_pages[i]->setTitle(titles[i]);
        m_pages[i]->setSubTitle(subtitles[i]);
    }
    const std::map<QString, QString> texts{{QStringLiteral("taskLabel"), tr("Task:")},
                                           {QStringLiteral("presetLabel"), tr("Workload:")},
                                           {QStringLiteral("epochsLabel"), tr("Epochs:")},
                                           {QStringLiteral("precisionLabel"), tr("Precision:")},
                                           {QStringLiteral("frameworkLabel"), tr("Framework:")},
                                           {QStringLiteral("budgetLabel"), tr("Budget:")},
                                           {QStringLiteral("deadlineLabel"), tr("Deadline:")},
                                           {QStringLiteral("minGpusLabel"), tr("At least GPUs:")},
                                           {QStringLiteral("maxGpusLabel"), tr("At most GPUs:")},
                                           {QStringLiteral("projectMonthsLabel"), tr("Project length (months):")}};
    for (QLabel* l : m_labels) {
        if (auto it = texts.find(l->objectName()); it != texts.end()) {
            l->setText(it->second);
        }
    }
    const int task = m_task->currentIndex();
    const QSignalBlocker blockTask(m_task);
    m_task->clear();
    m_task->addItem(tr("Any task"), QString());
    m_task->addItem(tr("Image classification"), QStringLiteral("vision"));
    m_task->addItem(tr("Object detection"), QStringLiteral("detection"));
    m_task->addItem(tr("3D detection"), QStringLiteral("detection3d"));
    m_task->addItem(tr("NLP (encoders)"), QStringLiteral("nlp"));
    m_task->addItem(tr("Large language models"), QStringLiteral("llm"));
    m_task->setCurrentIndex(std::max(0, task));
    m_task->setToolTip(tr("Narrows the workload list to one kind of task."));
    m_preset->setToolTip(tr("A preset with sourced model size and FLOPs. The estimate scales its work by the epochs."));
    m_epochs->setToolTip(tr("Passes over the data set. Time and cost grow in proportion."));
    const int precision = std::max(0, m_precision->currentIndex());
    const QSignalBlocker blockPrecision(m_precision);
    m_precision->clear();
    m_precision->addItem(tr("Best each GPU supports (BF16, else FP16 AMP)"), QString());
    m_precision->addItem(tr("AMP (FP16 mixed precision)"), QStringLiteral("amp"));
    m_precision->addItem(tr("BF16 mixed precision"), QStringLiteral("bf16"));
    m_precision->addItem(tr("FP8 (Hopper and newer)"), QStringLiteral("fp8"));
    m_precision->addItem(tr("TF32"), QStringLiteral("tf32"));
    m_precision->addItem(tr("FP32"), QStringLiteral("fp32"));
    m_precision->setCurrentIndex(precision);
    m_precision->setToolTip(tr("The estimate uses the tensor-core peak of this precision; a GPU without it falls "
                               "back to the next one it has. FP32 is several times slower on modern GPUs."));
    m_framework->setToolTip(tr("TPUs need JAX or TensorFlow; MindSpore needs Ascend or NVIDIA. Offers that cannot run "
                               "it are excluded."));
    m_budget->setPlaceholderText(tr("no limit"));
    m_budget->setToolTip(tr("The most the whole run may cost, storage and data transfer included."));
    m_currency->setToolTip(tr("Currency of the budget and of every cost shown for this plan."));
    m_deadline->setPlaceholderText(tr("none, or e.g. 14d"));
    m_deadline->setToolTip(tr("Wall-clock time until the run must be done: 14d, 36h, 90m or 2w. Setup and data upload "
                              "count too. With a deadline the cheapest option that meets it wins."));
    m_sensitive->setText(tr("The data is sensitive (medical, personal, unpublished)"));
    m_sensitive->setToolTip(tr("Keeps only bare-metal or dedicated offers and providers with a documented compliance "
                               "programme."));
    m_minGpus->setToolTip(tr("Fewer GPUs than this are not considered, even when cheaper."));
    m_maxGpus->setToolTip(tr("A model that does not fit is spread over more GPUs, up to this many."));
    m_multiNode->setText(tr("Allow several servers"));
    m_multiNode->setToolTip(tr("Off: only offers whose one server has enough GPUs."));
    m_rdma->setText(tr("Several servers only with RDMA (InfiniBand, EFA)"));
    m_rdma->setToolTip(tr("Without RDMA, gradients cross plain Ethernet and most GPU time is lost waiting."));
    m_onDemand->setText(tr("On-demand"));
    m_onDemand->setToolTip(tr("Pay by the hour, stop any time."));
    m_spot->setText(tr("Spot / preemptible"));
    m_spot->setToolTip(tr("Much cheaper, but can be interrupted; the estimate adds checkpoints and lost work."));
    m_reserved->setText(tr("Reserved (1 or 3 years)"));
    m_reserved->setToolTip(tr("A lower hourly price for a commitment; only for a project that long."));
    m_subscription->setText(tr("Monthly or yearly subscription"));
    m_subscription->setToolTip(tr("Chinese clouds' 包年包月: whole months paid in advance."));
    m_projectMonths->setToolTip(tr("How long the lab will keep training. 0: this run only."));
    m_projectMonths->setSpecialValueText(tr("this run only"));
    onPresetChanged();
}

} // namespace gpuplan::ui
