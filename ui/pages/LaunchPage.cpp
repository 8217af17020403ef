// The Launch page's form: its fields and their wording, the plan's choice filled in, the modes the provider lacks
// greyed with the reason, and the catalog's price. The launch itself (the order, the credential, the provider's
// price, the confirmation and the progress) is in LaunchPageRun.cpp.
#include "LaunchPage.h"

#include "LaunchPageParts.h"

#include "AppSettings.h"
#include "MainWindow.h"
#include "widgets/StatusLabel.h"
#include "widgets/WheelGuard.h"
#include "wording/ErrorText.h"
#include "wording/Format.h"
#include "wording/PlanText.h"
#include "wording/ProviderText.h"

#include "gpuplan/cloud/LaunchChoice.h"
#include "gpuplan/cloud/ProviderRegistry.h"
#include "gpuplan/cloud/PublicAddress.h"
#include "gpuplan/cloud/WatchdogScript.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QVBoxLayout>

#include <set>

namespace gpuplan::ui {

using launchpage::kProgressRows;
using launchpage::money;

LaunchPage::LaunchPage(CredentialStore* store, QWidget* parent)
    : QWidget(parent)
    , m_store(store)
    , m_introLabel(new QLabel(this))
    , m_planLabel(new QLabel(this))
    , m_offerBox(new QGroupBox(this))
    , m_accessBox(new QGroupBox(this))
    , m_guardBox(new QGroupBox(this))
    , m_provider(new QComboBox(this))
    , m_service(new QComboBox(this))
    , m_instanceType(new QComboBox(this))
    , m_region(new QComboBox(this))
    , m_zone(new QLineEdit(this))
    , m_pricing(new QComboBox(this))
    , m_months(new QSpinBox(this))
    , m_autoRenew(new QCheckBox(this))
    , m_spotLimit(new QDoubleSpinBox(this))
    , m_priceLabel(new QLabel(this))
    , m_priceOverride(new QDoubleSpinBox(this))
    , m_image(new QLineEdit(this))
    , m_keyFile(new QLineEdit(this))
    , m_browseKey(new QPushButton(this))
    , m_sshFrom(new QLineEdit(this))
    , m_sshPort(new QSpinBox(this))
    , m_deadman(new QSpinBox(this))
    , m_idleMinutes(new QSpinBox(this))
    , m_idlePercent(new QSpinBox(this))
    , m_budget(new QDoubleSpinBox(this))
    , m_terminateAtBudget(new QCheckBox(this))
    , m_dryRun(new QCheckBox(this))
    , m_jobBox(new QGroupBox(this))
    , m_jobImage(new QLineEdit(this))
    , m_jobCommand(new QLineEdit(this))
    , m_jobEnvironment(new QPlainTextEdit(this))
    , m_launchButton(new QPushButton(this))
    , m_cancelButton(new QPushButton(this))
    , m_progress(new QListWidget(this))
    , m_status(new StatusLabel(this))
    , m_job(this, [this](bool busy) {
        m_launchButton->setEnabled(!busy);
        m_cancelButton->setEnabled(busy);
    })
{
    setObjectName(QStringLiteral("launchPage"));
    m_introLabel->setWordWrap(true);
    m_planLabel->setObjectName(QStringLiteral("launchPlanLabel"));
    m_planLabel->setWordWrap(true);
    m_provider->setObjectName(QStringLiteral("launchProviderComboBox"));
    for (const std::string& id : core::ProviderRegistry::builtIn().ids()) {
        m_provider->addItem(providerDisplayName(id), QString::fromStdString(id));
    }
    m_service->setObjectName(QStringLiteral("launchServiceComboBox"));
    m_service->addItem(QString(), 0);
    m_service->addItem(QString(), 1);
    m_jobBox->setObjectName(QStringLiteral("launchJobGroup"));
    m_jobImage->setObjectName(QStringLiteral("launchJobImageLineEdit"));
    m_jobCommand->setObjectName(QStringLiteral("launchJobCommandLineEdit"));
    m_jobEnvironment->setObjectName(QStringLiteral("launchJobEnvironmentEdit"));
    m_jobEnvironment->setMaximumHeight(70);
    m_jobEnvironment->setTabChangesFocus(true);
    m_instanceType->setObjectName(QStringLiteral("launchInstanceComboBox"));
    m_instanceType->setEditable(true);
    m_instanceType->setInsertPolicy(QComboBox::NoInsert);
    m_region->setObjectName(QStringLiteral("launchRegionComboBox"));
    m_region->setEditable(true);
    m_region->setInsertPolicy(QComboBox::NoInsert);
    m_zone->setObjectName(QStringLiteral("launchZoneLineEdit"));
    m_pricing->setObjectName(QStringLiteral("launchPricingComboBox"));
    for (int i = 0; i < 3; ++i) {
        m_pricing->addItem(QString(), i);
    }
    m_months->setObjectName(QStringLiteral("launchMonthsSpinBox"));
    m_months->setRange(1, 36);
    m_autoRenew->setObjectName(QStringLiteral("launchAutoRenewCheckBox"));
    m_spotLimit->setObjectName(QStringLiteral("launchSpotLimitSpinBox"));
    m_spotLimit->setRange(0, 1e5);
    m_spotLimit->setDecimals(3);
    m_priceLabel->setObjectName(QStringLiteral("launchPriceLabel"));
    m_priceLabel->setWordWrap(true);
    m_priceOverride->setObjectName(QStringLiteral("launchPriceSpinBox"));
    m_priceOverride->setRange(0, 1e7);
    m_priceOverride->setDecimals(4);
    m_image->setObjectName(QStringLiteral("launchImageLineEdit"));
    m_keyFile->setObjectName(QStringLiteral("launchKeyLineEdit"));
    m_browseKey->setObjectName(QStringLiteral("launchBrowseKeyButton"));
    m_sshFrom->setObjectName(QStringLiteral("launchSshFromLineEdit"));
    m_sshPort->setObjectName(QStringLiteral("launchSshPortSpinBox"));
    m_sshPort->setRange(1, 65535);
    m_sshPort->setValue(22);
    m_deadman->setObjectName(QStringLiteral("launchDeadmanSpinBox"));
    // The watchdog's bounds, the same as the CLI's and the script's (core::checkWatchdogRules).
    m_deadman->setRange(0, core::kMaxDeadmanHours);
    m_deadman->setValue(12);
    m_idleMinutes->setObjectName(QStringLiteral("launchIdleMinutesSpinBox"));
    m_idleMinutes->setRange(0, core::kMaxIdleMinutes);
    m_idleMinutes->setValue(60);
    m_idlePercent->setObjectName(QStringLiteral("launchIdlePercentSpinBox"));
    m_idlePercent->setRange(core::kMinIdlePercent, core::kMaxIdlePercent);
    m_idlePercent->setValue(5);
    m_budget->setObjectName(QStringLiteral("launchBudgetSpinBox"));
    m_budget->setRange(0, 1e9);
    m_budget->setDecimals(2);
    m_terminateAtBudget->setObjectName(QStringLiteral("launchTerminateAtBudgetCheckBox"));
    m_dryRun->setObjectName(QStringLiteral("launchDryRunCheckBox"));
    m_launchButton->setObjectName(QStringLiteral("launchButton"));
    m_launchButton->setDefault(true);
    m_cancelButton->setObjectName(QStringLiteral("launchCancelButton"));
    m_cancelButton->setEnabled(false);
    m_progress->setObjectName(QStringLiteral("launchProgressList"));
    m_progress->setMaximumHeight(110);
    for (std::size_t i = 0; i < std::size(kProgressRows); ++i) {
        m_progress->addItem(QString());
    }
    m_status->setObjectName(QStringLiteral("launchStatusLabel"));
    // What the launch costs and how long it may run: a wheel over the page scrolls it, and changes one of these
    // only once the user has clicked or tabbed into it.
    WheelGuard::install({m_provider,
                         m_service,
                         m_instanceType,
                         m_region,
                         m_pricing,
                         m_months,
                         m_spotLimit,
                         m_priceOverride,
                         m_sshPort,
                         m_deadman,
                         m_idleMinutes,
                         m_idlePercent,
                         m_budget});

    // Each row's label, with its untranslated text, for retranslate().
    const auto addRow = [this](QFormLayout* form, auto* field, const char* text) {
        auto* label = new QLabel(form->parentWidget());
        form->addRow(label, field);
        m_rowLabels.emplace_back(label, text);
    };
    m_offerBox->setObjectName(QStringLiteral("launchOfferGroup"));
    auto* offerForm = new QFormLayout(m_offerBox);
    m_offerForm = offerForm;
    auto* priceRow = new QHBoxLayout;
    priceRow->addWidget(m_priceLabel, 1);
    priceRow->addWidget(m_priceOverride);
    auto* monthsRow = new QHBoxLayout;
    m_monthsRow = monthsRow;
    monthsRow->addWidget(m_months);
    monthsRow->addWidget(m_autoRenew, 1);
    addRow(offerForm, m_provider, QT_TR_NOOP("Provider:"));
    addRow(offerForm, m_service, QT_TR_NOOP("Service:"));
    addRow(offerForm, m_instanceType, QT_TR_NOOP("Instance type:"));
    addRow(offerForm, m_region, QT_TR_NOOP("Region:"));
    addRow(offerForm, m_zone, QT_TR_NOOP("Zone:"));
    addRow(offerForm, m_pricing, QT_TR_NOOP("Pricing:"));
    addRow(offerForm, monthsRow, QT_TR_NOOP("Subscription:"));
    addRow(offerForm, m_spotLimit, QT_TR_NOOP("Spot price limit:"));
    addRow(offerForm, priceRow, QT_TR_NOOP("Price:"));

    auto* accessForm = new QFormLayout(m_accessBox);
    auto* keyRow = new QHBoxLayout;
    keyRow->addWidget(m_keyFile, 1);
    keyRow->addWidget(m_browseKey);
    addRow(accessForm, m_image, QT_TR_NOOP("Image:"));
    addRow(accessForm, keyRow, QT_TR_NOOP("SSH public key:"));
    addRow(accessForm, m_sshFrom, QT_TR_NOOP("Open SSH to:"));
    addRow(accessForm, m_sshPort, QT_TR_NOOP("SSH port:"));

    auto* jobForm = new QFormLayout(m_jobBox);
    addRow(jobForm, m_jobImage, QT_TR_NOOP("Container image:"));
    addRow(jobForm, m_jobCommand, QT_TR_NOOP("Command:"));
    addRow(jobForm, m_jobEnvironment, QT_TR_NOOP("Environment:"));

    auto* guardForm = new QFormLayout(m_guardBox);
    m_guardForm = guardForm;
    auto* idleRow = new QHBoxLayout;
    m_idleRow = idleRow;
    idleRow->addWidget(m_idleMinutes);
    idleRow->addWidget(m_idlePercent);
    idleRow->addStretch(1);
    addRow(guardForm, m_deadman, QT_TR_NOOP("Dead-man switch:"));
    addRow(guardForm, idleRow, QT_TR_NOOP("Idle shutdown:"));
    addRow(guardForm, m_budget, QT_TR_NOOP("Budget of the plan:"));
    guardForm->addRow(QString(), m_terminateAtBudget);

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_dryRun);
    buttons->addStretch(1);
    buttons->addWidget(m_cancelButton);
    buttons->addWidget(m_launchButton);

    auto* form = new QWidget(this);
    auto* formLayout = new QVBoxLayout(form);
    formLayout->addWidget(m_introLabel);
    formLayout->addWidget(m_planLabel);
    formLayout->addWidget(m_offerBox);
    formLayout->addWidget(m_accessBox);
    formLayout->addWidget(m_jobBox);
    formLayout->addWidget(m_guardBox);
    formLayout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(form);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(scroll, 1);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_status);

    connect(m_provider, &QComboBox::currentIndexChanged, this, [this] {
        updateService();
        fillInstanceTypes();
        updatePricing();
    });
    connect(m_service, &QComboBox::currentIndexChanged, this, [this] {
        // The same machine under the other service, where the catalog has it.
        const QString twin = twinOf(m_instanceType->currentText(), managedJob());
        updateService();
        fillInstanceTypes();
        if (!twin.isEmpty()) {
            m_instanceType->setCurrentText(twin);
        }
        updatePricing();
        wordProgressRows();
    });
    connect(m_instanceType, &QComboBox::currentTextChanged, this, [this] { fillRegions(); });
    connect(m_region, &QComboBox::currentTextChanged, this, [this] { updatePrice(); });
    connect(m_pricing, &QComboBox::currentIndexChanged, this, [this] {
        const bool subscription = pricing() == core::LaunchPricing::Subscription;
        m_months->setEnabled(subscription);
        m_autoRenew->setEnabled(subscription);
        m_spotLimit->setEnabled(pricing() == core::LaunchPricing::Spot);
        updatePrice();
    });
    connect(m_months, &QSpinBox::valueChanged, this, [this] { updatePrice(); });
    connect(m_browseKey, &QPushButton::clicked, this, [this] {
        const QString file = QFileDialog::getOpenFileName(
            this, tr("SSH public key"), m_keyFile->text(), tr("Public keys (*.pub);;All files (*)"));
        if (!file.isEmpty()) {
            m_keyFile->setText(file);
        }
    });
    connect(m_launchButton, &QPushButton::clicked, this, &LaunchPage::launch);
    connect(m_cancelButton, &QPushButton::clicked, this, [this] {
        // The launch itself stops through its token. Preparing and asking the price send nothing that starts an
        // instance: they finish, and the launch stops there, before the confirmation.
        if (m_job.cancel()) {
            m_status->setStatus(
                tr("Cancelling… What was already sent is in the ledger; reconcile on the Instances page."));
        } else if (m_job.isBusy()) {
            m_status->setStatus(tr("Cancelling… Nothing has been launched."));
        }
    });

    retranslate();
    updateService();
    fillInstanceTypes();
    updatePricing();
    m_months->setEnabled(false);
    m_autoRenew->setEnabled(false);
    m_spotLimit->setEnabled(false);
}

void LaunchPage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QWidget::changeEvent(event);
}

void LaunchPage::retranslate()
{
    m_introLabel->setText(
        tr("Launch one instance, or submit one managed training job, through the provider's API. It is written to "
           "the ledger before the request goes out, so nothing launched is ever lost, and its dead-man switch ends it "
           "when it is forgotten."));
    if (m_planId.empty()) {
        m_planLabel->setText(tr("No plan is open: type the offer, or open a plan to launch its choice."));
    }
    m_offerBox->setTitle(tr("Offer"));
    m_jobBox->setTitle(tr("Managed job"));
    m_service->setItemText(0, tr("Virtual machine (you log in over SSH)"));
    m_jobImage->setPlaceholderText(tr("The container image the job runs in, e.g. a PyTorch image of your registry"));
    m_jobCommand->setPlaceholderText(tr("What the container runs, e.g. python train.py --epochs 3"));
    m_jobEnvironment->setPlaceholderText(tr("NAME=VALUE, one a line (optional)"));
    m_accessBox->setTitle(tr("Access"));
    m_guardBox->setTitle(tr("Guards against forgotten instances"));
    for (const auto& [label, text] : m_rowLabels) {
        label->setText(tr(text));
    }
    m_zone->setPlaceholderText(tr("Any zone: each one that offers the type is tried until one has capacity"));
    m_pricing->setItemText(0, tr("On demand"));
    m_pricing->setItemText(1, tr("Spot (may be interrupted)"));
    m_pricing->setItemText(2, tr("Monthly subscription (prepaid)"));
    m_months->setSuffix(tr(" month(s)"));
    m_autoRenew->setText(tr("Renew automatically at the end"));
    m_spotLimit->setSpecialValueText(tr("none: the market price, at most the on-demand price"));
    m_spotLimit->setToolTip(tr("The most a spot instance may cost per hour, in the provider's currency; the "
                               "provider may reclaim the instance when its price goes above."));
    m_priceOverride->setSpecialValueText(tr("catalog price"));
    m_priceOverride->setToolTip(tr("Your own price per hour (per month for a subscription), in the provider's "
                                   "currency, for a negotiated rate or one the catalog does not have."));
    m_image->setPlaceholderText(tr("The provider's current GPU deep-learning image"));
    m_keyFile->setPlaceholderText(tr("~/.ssh/id_ed25519.pub, else ~/.ssh/id_rsa.pub"));
    m_browseKey->setText(tr("Browse…"));
    m_sshFrom->setPlaceholderText(tr("This computer's public address, found when you launch"));
    m_deadman->setToolTip(tr("The instance shuts itself down (and so stops billing) this many hours after it "
                             "starts. The default is the plan's high estimate plus a quarter and an hour."));
    m_idleMinutes->setSpecialValueText(tr("Off"));
    m_idleMinutes->setSuffix(tr(" min"));
    m_idleMinutes->setPrefix(tr("after "));
    m_idlePercent->setPrefix(tr("below "));
    m_idlePercent->setSuffix(tr(" % GPU use"));
    m_budget->setSpecialValueText(tr("None"));
    m_terminateAtBudget->setText(tr("Terminate the plan's instances once it has spent its budget"));
    m_dryRun->setText(tr("Dry run: only check that the launch would succeed"));
    m_cancelButton->setText(tr("Cancel"));
    for (int i = 0; i < m_provider->count(); ++i) {
        m_provider->setItemText(i, providerDisplayName(m_provider->itemData(i).toString().toStdString()));
    }
    updateService();
    wordProgressRows();
    updatePricing();
    updatePrice();
}

void LaunchPage::setData(std::shared_ptr<const PlanningData> planningData)
{
    m_data = std::move(planningData);
    fillInstanceTypes();
}

QString
LaunchPage::notLaunchableText(const core::NotLaunchable& why, const std::string& provider, core::PricingMode mode) const
{
    const QString modeText = pricingModeText(mode);
    switch (why.block) {
        case core::LaunchBlock::Mode:
            return tr("%1 cannot launch %2: %3")
                .arg(providerDisplayName(provider), modeText, errorReasonText(why.detail));
        case core::LaunchBlock::Reservation:
            return tr("a %1 price is a reservation bought from the provider for a term; GPU Planner launches on "
                      "demand, spot or monthly")
                .arg(modeText);
        case core::LaunchBlock::Provider:
            break;
    }
    QStringList launchable;
    for (int i = 0; i < m_provider->count(); ++i) {
        launchable << m_provider->itemText(i);
    }
    return tr("GPU Planner launches on %1 only").arg(conjunctionText(launchable));
}

void LaunchPage::setPlan(const core::PlanDocument* plan)
{
    const core::PlanBudget budget = plan ? core::planBudgetOf(*plan) : core::PlanBudget{};
    core::Result<core::PlanLaunch> chosen =
        plan ? core::planLaunch(*plan, 0)
             : core::Result<core::PlanLaunch>(
                 core::Error{core::ErrorCode::SchemaViolation, core::Reason{"error.cloud.no_plan_open", {}}, "$"});
    // The same plan and offer again (a verification was added to it): the form keeps what the user typed since.
    std::string shown = budget.planId + '|' + std::to_string(budget.amount) + core::currencyCode(budget.currency);
    shown += chosen ? '|' + std::to_string(chosen->rank) + '|' + chosen->provider + '|' + chosen->instanceType + '|'
                          + chosen->region + '|' + core::pricingModeName(chosen->mode) + '|'
                          + std::to_string(chosen->hoursHigh)
                    : '|' + core::describe(chosen.error());
    if (plan && shown == m_planShown) {
        return;
    }
    m_planShown = shown;
    // Everything the previous plan put in the form goes, so that nothing of it is launched under this plan's name:
    // its offer, zone, own price, budget and dead-man (issue 20, finding 15).
    m_planId = budget.planId;
    m_budgetCurrency = budget.currency;
    m_budget->setPrefix(currencySymbol(QString::fromLatin1(core::currencyCode(m_budgetCurrency))));
    m_budget->setValue(budget.amount);
    m_zone->clear();
    m_priceOverride->setValue(0);
    m_spotLimit->setValue(0);
    m_months->setValue(1);

    if (!chosen) {
        m_instanceType->setCurrentText(QString());
        m_region->setCurrentText(QString());
        m_deadman->setValue(core::defaultDeadmanHours(0));
        m_planLabel->setText(plan ? tr("Nothing in this plan can be launched by GPU Planner (%1). Type an "
                                       "offer below to launch one under the plan's budget.")
                                        .arg(errorText(chosen.error()))
                                  : tr("No plan is open: type the offer, or open a plan to launch its "
                                       "choice."));
        return;
    }
    m_provider->setCurrentIndex(m_provider->findData(QString::fromStdString(chosen->provider)));
    m_service->setCurrentIndex(
        m_data && m_data->catalog
                && core::launchKindOf(m_data->catalog->catalog, chosen->provider, chosen->instanceType)
                       == core::LaunchKind::Job
            ? 1
            : 0);
    m_instanceType->setCurrentText(QString::fromStdString(chosen->instanceType));
    m_region->setCurrentText(QString::fromStdString(chosen->region));
    const bool subscription =
        chosen->mode == core::PricingMode::SubscriptionMonthly || chosen->mode == core::PricingMode::SubscriptionYearly;
    m_pricing->setCurrentIndex(chosen->mode == core::PricingMode::Spot ? 1 : subscription ? 2 : 0);
    if (chosen->mode == core::PricingMode::SubscriptionYearly) {
        m_months->setValue(12);
    }
    m_deadman->setValue(core::defaultDeadmanHours(chosen->hoursHigh));
    QString text = tr("From the plan: %1 on %2 in %3, %4. The dead-man default is the plan's high estimate "
                      "(%5) with a margin.")
                       .arg(QString::fromStdString(chosen->instanceType),
                            m_provider->currentText(),
                            QString::fromStdString(chosen->region),
                            m_pricing->currentText(),
                            formatHours(chosen->hoursHigh));
    if (chosen->passedOver) {
        const auto& [choice, why] = *chosen->passedOver;
        text =
            tr("The plan's choice, option %1: %2 on %3 in %4, cannot be launched by GPU Planner yet (%5); offering "
               "option %6: %7 on %8 in %9, the best-ranked one it can launch.")
                .arg(QString::number(choice.rank),
                     QString::fromStdString(choice.instanceType),
                     providerDisplayName(choice.provider),
                     QString::fromStdString(choice.region),
                     notLaunchableText(why, choice.provider, choice.mode),
                     QString::number(chosen->rank),
                     QString::fromStdString(chosen->instanceType),
                     m_provider->currentText(),
                     QString::fromStdString(chosen->region))
            + QLatin1Char(' ')
            + tr("The dead-man default is its high estimate (%1) with a margin.").arg(formatHours(chosen->hoursHigh));
    }
    m_planLabel->setText(text);
}

void LaunchPage::fillInstanceTypes()
{
    const QString current = m_instanceType->currentText();
    QSignalBlocker block(m_instanceType);
    m_instanceType->clear();
    if (m_data && m_data->catalog) {
        const std::string provider = m_provider->currentData().toString().toStdString();
        std::set<std::string> types;
        for (const core::Offer& offer : m_data->catalog->catalog.offers()) {
            if (offer.providerId == provider && (offer.service == core::ServiceKind::Managed) == managedJob()) {
                types.insert(offer.instanceType);
            }
        }
        for (const std::string& type : types) {
            m_instanceType->addItem(QString::fromStdString(type));
        }
    }
    const bool known = m_instanceType->findText(current) >= 0;
    m_instanceType->setCurrentText(!known && m_instanceType->count() > 0 ? m_instanceType->itemText(0) : current);
    fillRegions();
}

void LaunchPage::fillRegions()
{
    const QString current = m_region->currentText();
    QSignalBlocker block(m_region);
    m_region->clear();
    if (m_data && m_data->catalog) {
        const std::string provider = m_provider->currentData().toString().toStdString();
        const std::string type = m_instanceType->currentText().toStdString();
        for (const core::Offer& offer : m_data->catalog->catalog.offers()) {
            if (offer.providerId == provider && offer.instanceType == type) {
                for (const std::string& region : offer.regions()) {
                    m_region->addItem(QString::fromStdString(region));
                }
            }
        }
    }
    const bool known = m_region->findText(current) >= 0;
    m_region->setCurrentText(!known && m_region->count() > 0 ? m_region->itemText(0) : current);
    updatePrice();
}

bool LaunchPage::managedJob() const
{
    return m_service->currentIndex() == 1 && m_service->isEnabled();
}

QString LaunchPage::twinOf(const QString& instanceType, bool managed) const
{
    if (!m_data || !m_data->catalog) {
        return {};
    }
    const std::string provider = m_provider->currentData().toString().toStdString();
    const std::string type = instanceType.toStdString();
    for (const core::Offer& offer : m_data->catalog->catalog.offers()) {
        if (offer.providerId != provider || (offer.service == core::ServiceKind::Managed) != managed) {
            continue;
        }
        const std::string& candidate = offer.instanceType;
        // "azureml/X" is X as a managed job: the prefix names the service, the rest the machine.
        const std::size_t slash = managed ? candidate.find('/') : type.find('/');
        if (managed ? (slash != std::string::npos && candidate.substr(slash + 1) == type)
                    : (slash != std::string::npos && type.substr(slash + 1) == candidate)) {
            return QString::fromStdString(candidate);
        }
    }
    return {};
}

void LaunchPage::updateService()
{
    const core::ProviderDescriptor* provider =
        core::ProviderRegistry::builtIn().find(m_provider->currentData().toString().toStdString());
    const bool hasJobs = provider && provider->managedJobs && provider->managedJobs->canLaunch();
    const QString cloud = m_provider->currentText();
    m_service->setItemText(
        1,
        hasJobs ? tr("Managed job on %1 (no machine to look after)").arg(managedServiceName(provider->id))
                : tr("Managed job (none on %1)").arg(cloud));
    auto* model = qobject_cast<QStandardItemModel*>(m_service->model());
    model->item(1)->setEnabled(hasJobs);
    model->item(1)->setToolTip(hasJobs ? QString()
                                       : tr("%1 has no managed training service that GPU Planner submits to; "
                                            "Google Cloud (Vertex AI) and Azure (Azure Machine Learning) have one.")
                                             .arg(cloud));
    if (!hasJobs && m_service->currentIndex() == 1) {
        QSignalBlocker block(m_service);
        m_service->setCurrentIndex(0);
    }
    const bool job = managedJob();
    m_accessBox->setVisible(!job);
    m_jobBox->setVisible(job);
    // The service places a job, bills it on demand or on spot capacity at the market price, and rents no month.
    m_offerForm->setRowVisible(m_zone, !job);
    m_offerForm->setRowVisible(m_monthsRow, !job);
    m_offerForm->setRowVisible(m_spotLimit, !job);
    m_guardForm->setRowVisible(m_idleRow, !job);
    m_launchButton->setText(job ? tr("Submit job…") : tr("Launch…"));
    m_deadman->setSpecialValueText(job ? tr("Off: not allowed for a job") : tr("Off: it bills until you terminate it"));
    m_deadman->setSuffix(job ? tr(" h (the job's timeout)") : tr(" h after start"));
}

void LaunchPage::wordProgressRows()
{
    const bool job = managedJob();
    const char* jobTexts[] = {QT_TR_NOOP("Recorded in the ledger, job submitted"),
                              QT_TR_NOOP("Accepted: the job is queued"),
                              QT_TR_NOOP("Running"),
                              nullptr};
    for (std::size_t i = 0; i < std::size(kProgressRows); ++i) {
        QListWidgetItem* item = m_progress->item(static_cast<int>(i));
        item->setText(job && jobTexts[i] ? tr(jobTexts[i]) : tr(kProgressRows[i].text));
        item->setHidden(job && !jobTexts[i]); // a job has no SSH
    }
}

void LaunchPage::updatePricing()
{
    const core::ProviderDescriptor* cloud =
        core::ProviderRegistry::builtIn().find(m_provider->currentData().toString().toStdString());
    // A job's pricing is its service's: Vertex AI and Azure ML have spot, neither has a subscription.
    const core::ProviderDescriptor* provider = cloud && managedJob() && cloud->managedJobs ? cloud->managedJobs : cloud;
    const std::map<core::CloudFeature, core::Reason> lacks =
        provider ? provider->unsupported : std::map<core::CloudFeature, core::Reason>{};
    auto* model = qobject_cast<QStandardItemModel*>(m_pricing->model());
    const std::pair<int, core::CloudFeature> gated[] = {{1, core::CloudFeature::Spot},
                                                        {2, core::CloudFeature::Subscription}};
    for (const auto& [row, feature] : gated) {
        QStandardItem* item = model->item(row);
        const auto lack = lacks.find(feature);
        item->setEnabled(lack == lacks.end());
        item->setToolTip(
            lack == lacks.end()
                ? QString()
                : tr("%1 cannot do this: %2").arg(m_provider->currentText(), unsupportedText(lack->second)));
        if (lack != lacks.end() && m_pricing->currentIndex() == row) {
            m_pricing->setCurrentIndex(0);
        }
    }
    const auto dryRun = lacks.find(core::CloudFeature::DryRun);
    m_dryRun->setEnabled(dryRun == lacks.end());
    m_dryRun->setToolTip(dryRun == lacks.end() ? QString() : unsupportedText(dryRun->second));
    if (dryRun != lacks.end()) {
        m_dryRun->setChecked(false);
    }
    // Lambda and Paperspace have no firewall of their own for one instance: SSH stays open, and the field says why.
    const auto sshRule = lacks.find(core::CloudFeature::SshSourceRestriction);
    m_sshFrom->setEnabled(sshRule == lacks.end());
    m_sshFrom->setToolTip(
        sshRule == lacks.end()
            ? tr("SSH (TCP 22) is opened to this address or range only, for example 203.0.113.7 or 203.0.113.0/24.")
            : tr("%1 cannot do this: %2").arg(m_provider->currentText(), unsupportedText(sshRule->second)));
}

std::optional<core::LaunchPricing> LaunchPage::pricing() const
{
    switch (m_pricing->currentIndex()) {
        case 1:
            return core::LaunchPricing::Spot;
        case 2:
            return core::LaunchPricing::Subscription;
        default:
            return core::LaunchPricing::OnDemand;
    }
}

void LaunchPage::updatePrice()
{
    if (!m_data || !m_data->catalog) {
        m_priceLabel->setText(tr("The catalog is loading…"));
        return;
    }
    const core::LaunchPricing mode = pricing().value_or(core::LaunchPricing::OnDemand);
    const int months = mode == core::LaunchPricing::Subscription ? m_months->value() : 0;
    core::Result<core::LaunchPrice> price = core::catalogLaunchPrice(m_data->catalog->catalog,
                                                                     m_provider->currentData().toString().toStdString(),
                                                                     m_instanceType->currentText().toStdString(),
                                                                     m_region->currentText().toStdString(),
                                                                     core::pricingModeOf(mode, months),
                                                                     months);
    if (!price) {
        m_priceLabel->setText(tr("Unknown: the catalog has no such price. Enter your own to launch."));
        return;
    }
    m_priceLabel->setText(price->unit == core::PriceUnit::Month
                              ? tr("%1 a month (catalog)").arg(money(price->amount, price->currency))
                              : tr("%1 an hour (catalog)").arg(money(price->amount, price->currency)));
}

core::LaunchPreparation LaunchPage::preparation() const
{
    core::LaunchPreparation p;
    core::LaunchSettings& s = p.settings;
    s.provider = m_provider->currentData().toString().toStdString();
    s.instanceType = m_instanceType->currentText().trimmed().toStdString();
    s.region = m_region->currentText().trimmed().toStdString();
    s.zone = m_zone->text().trimmed().toStdString();
    s.pricing = pricing().value_or(core::LaunchPricing::OnDemand);
    s.subscriptionMonths = s.pricing == core::LaunchPricing::Subscription ? m_months->value() : 0;
    s.autoRenew = m_autoRenew->isChecked();
    s.spotPriceLimit = s.pricing == core::LaunchPricing::Spot && !managedJob() ? m_spotLimit->value() : 0;
    if (m_priceOverride->value() > 0) {
        s.price = m_priceOverride->value();
    }
    s.imageId = m_image->text().trimmed().toStdString();
    p.sshFrom = m_sshFrom->text().toStdString();
    s.watchdog = core::WatchdogRules{m_deadman->value(), m_idleMinutes->value(), m_idlePercent->value(), 60};
    s.planId = m_planId;
    s.budget = m_budget->value();
    s.budgetCurrency = m_budgetCurrency;
    s.terminateAtBudget = m_terminateAtBudget->isChecked();
    s.dryRun = m_dryRun->isChecked() && m_dryRun->isEnabled();
    if (managedJob()) {
        core::JobSpec job;
        job.image = m_jobImage->text().trimmed().toStdString();
        job.command = core::shellCommand(m_jobCommand->text().trimmed().toStdString());
        for (const QString& line : m_jobEnvironment->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const qsizetype equals = line.indexOf(QLatin1Char('='));
            const QString name = (equals < 0 ? line : line.left(equals)).trimmed();
            // A line without '=' keeps its text as the name, so that the core's check names it.
            job.environment.emplace_back(name.toStdString(),
                                         equals < 0 ? std::string() : line.mid(equals + 1).toStdString());
        }
        s.job = std::move(job);
        s.imageId.clear();
        s.dryRun = false;
    }
    QString key = m_keyFile->text().trimmed();
    if (key.startsWith(QLatin1String("~/"))) {
        key = QDir::homePath() + key.mid(1);
    }
    p.publicKeyFile = key.toStdString();
    return p;
}

} // namespace gpuplan::ui
