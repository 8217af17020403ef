// The plan wizard's pages: their fields built in the order of the recommender's decision tree, and their wording in
// both languages. What the answers mean (the workload chosen, the checks, the planner's inputs) is in
// PlanWizardAnswers.cpp.
#include "PlanWizard.h"

#include "PlanWizardParts.h"

#include "AppSettings.h"
#include "widgets/CountryPicker.h"
#include "widgets/WheelGuard.h"
#include "wording/PlanText.h"

#include "gpuplan/catalog/GpuSpec.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace gpuplan::ui {

using planwizard::CheckedPage;

namespace {

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

/// Widgets side by side, the last one taking the spare room.
QWidget* inRow(std::initializer_list<QWidget*> widgets)
{
    auto* box = new QWidget;
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    for (QWidget* w : widgets) {
        row->addWidget(w);
    }
    row->addStretch(1);
    return box;
}

/// What a stack choice means, in a sentence, for the wizard.
QString stackMeaning(const QString& stack)
{
    if (stack == QLatin1String("tuned")) {
        return PlanWizard::tr("MLPerf- or NGC-grade code: DALI decodes images on the GPU, fused kernels, CUDA graphs, "
                              "Megatron/NeMo-class parallelism.");
    }
    if (stack == QLatin1String("plain")) {
        return PlanWizard::tr("Eager code with default data loading and no fused kernels: a first script or a course "
                              "example.");
    }
    return PlanWizard::tr("Framework defaults with mixed precision and a proper data loader (PyTorch DataLoader with "
                          "workers, Hugging Face Trainer, timm, Ultralytics): most lab code.");
}

} // namespace

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
    auto* workload = new CheckedPage(QStringLiteral("workloadPage"), [this] { return validateWorkloadPage(); });
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
    // Your own workload: what you timed on one GPU type ...
    m_measuredValue = new QDoubleSpinBox(workload);
    m_measuredValue->setObjectName(QStringLiteral("measuredThroughputSpinBox"));
    m_measuredValue->setRange(0.01, 1e9);
    m_measuredValue->setDecimals(1);
    m_measuredValue->setValue(1000);
    m_measuredUnit = new QComboBox(workload);
    m_measuredUnit->setObjectName(QStringLiteral("measuredUnitComboBox"));
    m_measuredCount = new QSpinBox(workload);
    m_measuredCount->setObjectName(QStringLiteral("measuredGpuCountSpinBox"));
    m_measuredCount->setRange(1, 64);
    m_measuredCount->setSuffix(QStringLiteral(" ×"));
    m_measuredGpu = new QComboBox(workload);
    m_measuredGpu->setObjectName(QStringLiteral("measuredGpuComboBox"));
    m_measuredGpu->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_measuredPrecision = new QComboBox(workload);
    m_measuredPrecision->setObjectName(QStringLiteral("measuredPrecisionComboBox"));
    m_units = new QLineEdit(workload);
    m_units->setObjectName(QStringLiteral("unitsPerEpochEdit"));
    m_unitsError = errorLabel(QStringLiteral("unitsPerEpochErrorLabel"), workload);
    m_parameters = new QLineEdit(workload);
    m_parameters->setObjectName(QStringLiteral("modelParametersEdit"));
    m_parametersError = errorLabel(QStringLiteral("modelParametersErrorLabel"), workload);
    m_datasetGb = new QLineEdit(workload);
    m_datasetGb->setObjectName(QStringLiteral("datasetGbEdit"));
    m_datasetError = errorLabel(QStringLiteral("datasetGbErrorLabel"), workload);
    // ... or a workload file.
    m_workloadFile = new QLineEdit(workload);
    m_workloadFile->setObjectName(QStringLiteral("workloadFileEdit"));
    m_workloadFileError = errorLabel(QStringLiteral("workloadFileErrorLabel"), workload);
    auto* browse = new QPushButton(workload);
    browse->setObjectName(QStringLiteral("workloadFileBrowseButton"));
    m_ownMeasurement = new QCheckBox(workload);
    m_ownMeasurement->setObjectName(QStringLiteral("ownMeasurementCheckBox"));

    m_workloadForm = new QFormLayout(workload);
    QFormLayout* workloadForm = m_workloadForm;
    workloadForm->addRow(label("taskLabel"), m_task);
    workloadForm->addRow(label("presetLabel"), m_preset);
    workloadForm->addRow(QString(), m_presetDescription);
    workloadForm->addRow(QString(), m_ownMeasurement);
    m_measuredRows = {inRow({m_measuredValue, m_measuredUnit}),
                      inRow({m_measuredCount, m_measuredGpu}),
                      m_measuredPrecision,
                      withError(m_units, m_unitsError),
                      withError(m_parameters, m_parametersError),
                      withError(m_datasetGb, m_datasetError)};
    const char* measuredLabels[] = {"measuredThroughputLabel",
                                    "measuredGpuLabel",
                                    "measuredPrecisionLabel",
                                    "unitsLabel",
                                    "parametersLabel",
                                    "datasetLabel"};
    for (std::size_t i = 0; i < std::size(measuredLabels); ++i) {
        workloadForm->addRow(label(measuredLabels[i]), m_measuredRows[qsizetype(i)]);
    }
    m_fileRow = withError(m_workloadFile, m_workloadFileError, browse);
    workloadForm->addRow(label("workloadFileLabel"), m_fileRow);
    m_epochsLabel = label("epochsLabel");
    workloadForm->addRow(m_epochsLabel, m_epochs);
    connect(m_ownMeasurement, &QCheckBox::toggled, this, &PlanWizard::onPresetChanged);
    for (QLineEdit* edit : {m_units, m_parameters, m_datasetGb}) {
        connect(edit, &QLineEdit::textChanged, workload, [workload] { workload->changed(); });
    }
    connect(m_measuredUnit, &QComboBox::currentIndexChanged, this, [this] { retranslateUnits(); });
    connect(m_workloadFile, &QLineEdit::editingFinished, this, &PlanWizard::loadWorkloadFile);
    connect(m_workloadFile, &QLineEdit::textEdited, workload, [this, workload] {
        m_fileWorkload.reset(); // what is typed is loaded when editing ends
        workload->changed();
    });
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("Open a workload file"), QString(), tr("Workload files (*.json);;All files (*)"));
        if (!file.isEmpty()) {
            m_workloadFile->setText(file);
            loadWorkloadFile();
        }
    });

    // 2. Precision and framework.
    auto* training = new CheckedPage(QStringLiteral("trainingPage"), {});
    m_precision = new QComboBox(training);
    m_precision->setObjectName(QStringLiteral("precisionComboBox"));
    m_framework = new QComboBox(training);
    m_framework->setObjectName(QStringLiteral("frameworkComboBox"));
    for (const char* f : {"pytorch", "tensorflow", "jax", "paddle", "mindspore"}) {
        m_framework->addItem(QString::fromLatin1(f), QString::fromLatin1(f));
    }
    m_stack = new QComboBox(training);
    m_stack->setObjectName(QStringLiteral("stackComboBox"));
    m_stackDescription = new QLabel(training);
    m_stackDescription->setObjectName(QStringLiteral("stackDescriptionLabel"));
    m_stackDescription->setWordWrap(true);
    auto* trainingForm = new QFormLayout(training);
    trainingForm->addRow(label("precisionLabel"), m_precision);
    trainingForm->addRow(label("frameworkLabel"), m_framework);
    trainingForm->addRow(label("stackLabel"), m_stack);
    trainingForm->addRow(QString(), m_stackDescription);
    connect(m_stack, &QComboBox::currentIndexChanged, this, [this] {
        m_stackDescription->setText(stackMeaning(m_stack->currentData().toString()));
    });

    // 3. Budget and deadline.
    auto* budget = new CheckedPage(QStringLiteral("budgetPage"), [this] { return validateBudgetPage(); });
    m_budget = new QLineEdit(budget);
    m_budget->setObjectName(QStringLiteral("budgetEdit"));
    m_budgetError = errorLabel(QStringLiteral("budgetErrorLabel"), budget);
    m_currency = new QComboBox(budget);
    m_currency->setObjectName(QStringLiteral("currencyComboBox"));
    m_currency->addItem(QStringLiteral("CNY ¥"), QStringLiteral("CNY"));
    m_currency->addItem(QStringLiteral("USD $"), QStringLiteral("USD"));
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
    auto* scale = new CheckedPage(QStringLiteral("scalePage"), [this] {
        return m_minGpus->value() <= m_maxGpus->value() && m_countries->countries().has_value();
    });
    m_sensitive = new QCheckBox(scale);
    m_sensitive->setObjectName(QStringLiteral("sensitiveCheckBox"));
    m_countries = new CountryPicker(QStringLiteral("countries"), scale);
    connect(m_countries, &CountryPicker::changed, scale, [scale] { scale->changed(); });
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
    scaleForm->addRow(label("countriesLabel"), m_countries);
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
    WheelGuard::install({m_currency, m_projectMonths}); // the budget's currency and the months paid for
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
    connect(m_task, &QComboBox::currentIndexChanged, this, &PlanWizard::fillWorkloadList);
    connect(m_preset, &QComboBox::currentIndexChanged, this, &PlanWizard::onPresetChanged);
    useSettingsDefaults();
    retranslate();
}

void PlanWizard::useSettingsDefaults()
{
    const AppSettings settings;
    m_currency->setCurrentIndex(std::max(0, m_currency->findData(settings.displayCurrency())));
    m_countries->setText(settings.regionCountries());
}

void PlanWizard::setChoices(const core::LoadedWorkloads& presets, const std::vector<core::GpuSpec>& gpus)
{
    const QString gpu = m_measuredGpu->currentData().toString();
    m_measuredGpu->clear();
    for (const core::GpuSpec& g : gpus) {
        m_measuredGpu->addItem(QString::fromStdString(g.name), QString::fromStdString(g.id));
    }
    const int a100 = m_measuredGpu->findData(gpu.isEmpty() ? QStringLiteral("a100-sxm4-80gb") : gpu);
    m_measuredGpu->setCurrentIndex(std::max(0, a100));
    m_presets = presets.presets;
    m_preset->clear(); // the first preset becomes the default
    fillWorkloadList();
}

void PlanWizard::fillPrecisions(QComboBox* box, bool withBest)
{
    const int current = std::max(0, box->currentIndex());
    const QSignalBlocker block(box);
    box->clear();
    if (withBest) {
        box->addItem(tr("Best each GPU supports (BF16, else FP16 AMP)"), QString());
    }
    box->addItem(tr("AMP (FP16 mixed precision)"), QStringLiteral("amp"));
    box->addItem(tr("BF16 mixed precision"), QStringLiteral("bf16"));
    box->addItem(tr("FP8 (Hopper and newer)"), QStringLiteral("fp8"));
    box->addItem(tr("TF32"), QStringLiteral("tf32"));
    box->addItem(tr("FP32"), QStringLiteral("fp32"));
    box->setCurrentIndex(current);
}

void PlanWizard::retranslateUnits()
{
    const bool tokens = m_measuredUnit->currentData().toString() == QLatin1String("tokens");
    for (QLabel* l : m_labels) {
        if (l->objectName() == QLatin1String("unitsLabel")) {
            l->setText(tokens ? tr("Tokens per epoch:") : tr("Samples per epoch:"));
        }
    }
    m_units->setPlaceholderText(tokens ? tr("e.g. 2B") : tr("e.g. 1.28M"));
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
                                           {QStringLiteral("measuredThroughputLabel"), tr("Measured throughput:")},
                                           {QStringLiteral("measuredGpuLabel"), tr("Measured on:")},
                                           {QStringLiteral("measuredPrecisionLabel"), tr("At precision:")},
                                           {QStringLiteral("parametersLabel"), tr("Model parameters:")},
                                           {QStringLiteral("datasetLabel"), tr("Data to upload (GB):")},
                                           {QStringLiteral("workloadFileLabel"), tr("Workload file:")},
                                           {QStringLiteral("precisionLabel"), tr("Precision:")},
                                           {QStringLiteral("frameworkLabel"), tr("Framework:")},
                                           {QStringLiteral("stackLabel"), tr("Training code:")},
                                           {QStringLiteral("budgetLabel"), tr("Budget:")},
                                           {QStringLiteral("deadlineLabel"), tr("Deadline:")},
                                           {QStringLiteral("countriesLabel"), tr("Regions:")},
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
    m_task->addItem(taskText(QStringLiteral("vision")), QStringLiteral("vision"));
    m_task->addItem(taskText(QStringLiteral("detection")), QStringLiteral("detection"));
    m_task->addItem(taskText(QStringLiteral("detection3d")), QStringLiteral("detection3d"));
    m_task->addItem(taskText(QStringLiteral("nlp")), QStringLiteral("nlp"));
    m_task->addItem(taskText(QStringLiteral("llm")), QStringLiteral("llm"));
    m_task->setCurrentIndex(std::max(0, task));
    fillWorkloadList();
    m_task->setToolTip(tr("Narrows the workload list to one kind of task."));
    m_preset->setToolTip(tr("A preset with sourced model size and FLOPs. The estimate scales its work by the epochs."));
    m_epochs->setToolTip(tr("Passes over the data set. Time and cost grow in proportion."));
    m_measuredValue->setToolTip(tr("What your training loop reported, over all the GPUs it ran on. Every offer's "
                                   "time is this figure scaled by its effective peak against that of the GPU you "
                                   "timed it on."));
    const int unit = std::max(0, m_measuredUnit->currentIndex());
    {
        const QSignalBlocker block(m_measuredUnit);
        m_measuredUnit->clear();
        m_measuredUnit->addItem(throughputUnitText(QStringLiteral("samples/s")), QStringLiteral("samples"));
        m_measuredUnit->addItem(throughputUnitText(QStringLiteral("tokens/s")), QStringLiteral("tokens"));
        m_measuredUnit->setCurrentIndex(unit);
    }
    m_measuredUnit->setToolTip(tr("Samples (images, sequences, point clouds) or tokens per second."));
    m_measuredCount->setToolTip(tr("How many GPUs of that type the throughput was measured on."));
    m_measuredGpu->setToolTip(tr("The GPU you timed it on. Only GPUs in the catalog can be scaled from."));
    fillPrecisions(m_measuredPrecision, false);
    m_measuredPrecision->setToolTip(tr("The precision of the timed run: its peak is the one the scaling starts from."));
    m_units->setToolTip(tr("The amount of work of one epoch: 1281167, 1.28M, 2B, or 128万. Time grows in proportion."));
    m_parameters->setPlaceholderText(tr("optional, e.g. 7B"));
    m_parameters->setToolTip(tr("Parameter count, to check that weights, gradients and Adam state fit in GPU memory "
                                "(activations are not counted without the model's shape). Empty: fit unknown."));
    m_datasetGb->setPlaceholderText(tr("optional, e.g. 150"));
    m_datasetGb->setToolTip(tr("What has to be uploaded before training, in GB: counts toward time and storage "
                               "cost. Empty: nothing to upload."));
    m_workloadFile->setPlaceholderText(tr("path to a .json workload file"));
    m_workloadFile->setToolTip(tr("Your own workload in the gpuplan-workload/1 format (docs/workloads.md). Problems "
                                  "are named here with the JSON path."));
    if (auto* browse = findChild<QPushButton*>(QStringLiteral("workloadFileBrowseButton"))) {
        browse->setText(tr("Browse…"));
    }
    retranslateUnits();
    fillPrecisions(m_precision, true);
    m_precision->setToolTip(tr("The estimate uses the tensor-core peak of this precision; a GPU without it falls "
                               "back to the next one it has. FP32 is several times slower on modern GPUs."));
    m_framework->setToolTip(tr("TPUs need JAX or TensorFlow; MindSpore needs Ascend or NVIDIA. Offers that cannot run "
                               "it are excluded."));
    {
        const QString stack = m_stack->currentData().toString();
        const QSignalBlocker block(m_stack);
        m_stack->clear();
        m_stack->addItem(tr("Typical"), QStringLiteral("typical"));
        m_stack->addItem(tr("Tuned"), QStringLiteral("tuned"));
        m_stack->addItem(tr("Plain"), QStringLiteral("plain"));
        m_stack->setCurrentIndex(std::max(0, m_stack->findData(stack.isEmpty() ? QStringLiteral("typical") : stack)));
        m_stackDescription->setText(stackMeaning(m_stack->currentData().toString()));
    }
    m_stack->setToolTip(tr("How tuned the training code is: after the GPU, the biggest single factor in speed. The "
                           "same 8 × A100 ResNet-50 run is published at 11.4k, 16.6k and 26.7k images/s."));
    m_ownMeasurement->setText(tr("I have timed this workload myself"));
    m_ownMeasurement->setToolTip(
        tr("What you measured is saved as your own calibration case: this plan and every later "
           "one for this workload rest on it, for that GPU and its family."));
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
