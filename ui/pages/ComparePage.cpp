#include "ComparePage.h"

#include "PlanSession.h"
#include "models/OptionTableModel.h"
#include "wording/Format.h"
#include "wording/PlanText.h"

#include <QEvent>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>
#include <QTreeWidget>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>
#include <map>

namespace gpuplan::ui {

namespace {

constexpr int kSliderSteps = 1000;
constexpr int kGpuCounts[] = {1, 2, 4, 8, 16, 32, 64};

/// The plan's currency code ("CNY"), the way formatMoney takes it.
QString currencyText(const core::PlanDocument& plan)
{
    return QString::fromLatin1(core::currencyCode(plan.currency()));
}

QSlider* slider(const QString& name, int maximum, QWidget* parent)
{
    auto* s = new QSlider(Qt::Horizontal, parent);
    s->setObjectName(name);
    s->setRange(0, maximum);
    return s;
}

/// The excluding rule as a heading of the excluded list.
QString ruleText(const QString& rule)
{
    static const std::map<QString, const char*> names{
        {QStringLiteral("framework"), QT_TRANSLATE_NOOP("gpuplan::ui::ComparePage", "Framework not supported")},
        {QStringLiteral("sensitive"), QT_TRANSLATE_NOOP("gpuplan::ui::ComparePage", "Not for sensitive data")},
        {QStringLiteral("region"), QT_TRANSLATE_NOOP("gpuplan::ui::ComparePage", "Outside the chosen regions")},
        {QStringLiteral("unknown"), QT_TRANSLATE_NOOP("gpuplan::ui::ComparePage", "Cannot be estimated")},
        {QStringLiteral("memory"), QT_TRANSLATE_NOOP("gpuplan::ui::ComparePage", "Does not fit in memory")},
        {QStringLiteral("scale"), QT_TRANSLATE_NOOP("gpuplan::ui::ComparePage", "Needs several servers")},
        {QStringLiteral("rdma"), QT_TRANSLATE_NOOP("gpuplan::ui::ComparePage", "Several servers without RDMA")},
        {QStringLiteral("no_price"), QT_TRANSLATE_NOOP("gpuplan::ui::ComparePage", "No published price")},
        {QStringLiteral("deadline"), QT_TRANSLATE_NOOP("gpuplan::ui::ComparePage", "Misses the deadline")},
        {QStringLiteral("budget"), QT_TRANSLATE_NOOP("gpuplan::ui::ComparePage", "Over the budget")},
        {QStringLiteral("pricing"), QT_TRANSLATE_NOOP("gpuplan::ui::ComparePage", "No pricing mode left")}};
    const auto it = names.find(rule);
    return it == names.end() ? rule : ComparePage::tr(it->second);
}

} // namespace

ComparePage::ComparePage(PlanSession* session, QWidget* parent)
    : QWidget(parent)
    , m_session(session)
    , m_model(new OptionTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_title(new QLabel(this))
    , m_recommendation(new QLabel(this))
    , m_budgetLabel(new QLabel(this))
    , m_budget(slider(QStringLiteral("budgetSlider"), kSliderSteps, this))
    , m_deadlineLabel(new QLabel(this))
    , m_deadline(slider(QStringLiteral("deadlineSlider"), kSliderSteps, this))
    , m_gpusLabel(new QLabel(this))
    , m_gpus(slider(QStringLiteral("gpuCountSlider"), int(std::size(kGpuCounts)) - 1, this))
    , m_spotLabel(new QLabel(this))
    , m_spot(slider(QStringLiteral("spotShareSlider"), 100, this))
    , m_rateLabel(new QLabel(this))
    , m_rate(slider(QStringLiteral("exchangeRateSlider"), 400, this))
    , m_busy(new QProgressBar(this))
    , m_filter(new QLineEdit(this))
    , m_table(new QTableView(this))
    , m_details(new QTextBrowser(this))
    , m_excludedToggle(new QToolButton(this))
    , m_excluded(new QTreeWidget(this))
{
    setObjectName(QStringLiteral("comparePage"));
    m_title->setObjectName(QStringLiteral("planTitleLabel"));
    m_title->setTextFormat(Qt::PlainText); // the workload's name comes from the plan file: text, never markup
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_recommendation->setObjectName(QStringLiteral("recommendationLabel"));
    m_recommendation->setWordWrap(true);
    m_recommendation->setTextFormat(Qt::RichText);
    m_busy->setObjectName(QStringLiteral("replanProgress"));
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(160);
    m_busy->hide();

    auto* whatIf = new QGroupBox(this);
    whatIf->setObjectName(QStringLiteral("whatIfGroup"));
    auto* grid = new QGridLayout(whatIf);
    int row = 0;
    for (auto [label, s] : {std::pair{m_budgetLabel, m_budget},
                            std::pair{m_deadlineLabel, m_deadline},
                            std::pair{m_gpusLabel, m_gpus},
                            std::pair{m_spotLabel, m_spot},
                            std::pair{m_rateLabel, m_rate}}) {
        label->setMinimumWidth(220);
        grid->addWidget(label, row / 2, (row % 2) * 2);
        grid->addWidget(s, row / 2, (row % 2) * 2 + 1);
        connect(s, &QSlider::valueChanged, this, &ComparePage::onSliderMoved);
        ++row;
    }
    grid->addWidget(m_busy, 2, 3, Qt::AlignRight);

    m_filter->setObjectName(QStringLiteral("optionsFilterEdit"));
    m_filter->setClearButtonEnabled(true);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(Qt::UserRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_table->setObjectName(QStringLiteral("optionsTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(OptionTableModel::Rank, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    m_details->setObjectName(QStringLiteral("optionDetailsBrowser"));
    m_details->setOpenExternalLinks(true);

    m_excludedToggle->setObjectName(QStringLiteral("excludedToggle"));
    m_excludedToggle->setCheckable(true);
    m_excludedToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_excludedToggle->setArrowType(Qt::RightArrow);
    m_excluded->setObjectName(QStringLiteral("excludedList"));
    m_excluded->setColumnCount(2);
    m_excluded->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents); // also when a group opens
    m_excluded->hide();
    connect(m_excludedToggle, &QToolButton::toggled, this, [this](bool open) {
        m_excluded->setVisible(open);
        m_excludedToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
    });

    // The option's details under the table, so that the table has the page's whole width for its cost columns.
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("compareSplitter"));
    splitter->addWidget(m_table);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_recommendation);
    layout->addWidget(whatIf);
    layout->addWidget(m_filter);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_excludedToggle);
    layout->addWidget(m_excluded);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ComparePage::showDetails);
    connect(m_session, &PlanSession::planChanged, this, &ComparePage::onPlanChanged);
    connect(m_session, &PlanSession::busyChanged, m_busy, &QWidget::setVisible);
    retranslate();
}

void ComparePage::resetSliders()
{
    // The sliders' ends follow the plan as the wizard made it, not as the sliders moved it.
    const core::PlanDocument& plan = *m_session->plan();
    const core::Constraints& c = plan.constraints;
    double costliest = 0;
    double slowest = 0;
    for (const core::PlanOption& o : plan.results.options) {
        costliest = std::max(costliest, o.cost.value);
        slowest = std::max(slowest, o.hours.value);
    }
    const double budget = c.budget.value_or(0);
    const double deadline = c.deadlineHours.value_or(0);
    m_budgetMax = std::max({budget * 2, costliest * 1.2, 100.0});
    m_deadlineMax = std::max({deadline * 2, slowest * 1.2, 24.0});
    const QSignalBlocker b1(m_budget), b2(m_deadline), b3(m_gpus), b4(m_spot), b5(m_rate);
    m_budget->setValue(budget > 0 ? int(std::lround(budget / m_budgetMax * kSliderSteps)) : kSliderSteps);
    m_deadline->setValue(deadline > 0 ? int(std::lround(deadline / m_deadlineMax * kSliderSteps)) : kSliderSteps);
    int gpuIndex = 0;
    for (int i = 0; i < int(std::size(kGpuCounts)); ++i) {
        if (kGpuCounts[i] <= c.minGpus) {
            gpuIndex = i;
        }
    }
    m_gpus->setValue(gpuIndex);
    m_spot->setValue(int(std::lround(c.spotShare.value_or(0) * 100)));
    const double rate = plan.exchangeRate ? plan.exchangeRate->cnyPerUsd : 7;
    m_rate->setValue(int(std::lround((rate - 6.0) * 200)));
    m_rateAtReset = m_rate->value();
}

void ComparePage::updateSliderLabels()
{
    const QString currency = m_session->plan() ? currencyText(*m_session->plan()) : QString();
    m_budgetLabel->setObjectName(QStringLiteral("budgetSliderLabel"));
    m_budgetLabel->setText(
        m_budget->value() >= kSliderSteps
            ? tr("Budget: no limit")
            : tr("Budget: %1").arg(formatMoney(m_budget->value() * m_budgetMax / kSliderSteps, currency)));
    m_deadlineLabel->setText(
        m_deadline->value() >= kSliderSteps
            ? tr("Deadline: none")
            : tr("Deadline: %1").arg(formatHours(std::max(1, m_deadline->value()) * m_deadlineMax / kSliderSteps)));
    m_gpusLabel->setText(tr("At least %n GPU(s)", nullptr, kGpuCounts[m_gpus->value()]));
    m_spotLabel->setText(m_spot->value() == 0 ? tr("Spot share: cheapest mode per offer")
                                              : tr("Spot share: %1 %").arg(m_spot->value()));
    m_rateLabel->setText(tr("Exchange rate: %1 CNY per USD").arg(formatNumber(6.0 + m_rate->value() / 200.0, 3)));
}

void ComparePage::onSliderMoved()
{
    updateSliderLabels();
    if (!m_session->inputs()) {
        return;
    }
    PlanInputs inputs = *m_session->inputs();
    core::Constraints& c = inputs.constraints;
    c.budget = m_budget->value() >= kSliderSteps
                   ? std::nullopt
                   : std::optional<double>(m_budget->value() * m_budgetMax / kSliderSteps);
    c.deadlineHours = m_deadline->value() >= kSliderSteps
                          ? std::nullopt
                          : std::optional<double>(std::max(1, m_deadline->value()) * m_deadlineMax / kSliderSteps);
    c.minGpus = kGpuCounts[m_gpus->value()];
    c.maxGpus = std::max(c.maxGpus, c.minGpus);
    c.spotShare = m_spot->value() == 0 ? std::nullopt : std::optional<double>(m_spot->value() / 100.0);
    if (m_rate->value() != m_rateAtReset) {
        inputs.cnyPerUsd = 6.0 + m_rate->value() / 200.0;
    }
    m_fromSliders = true;
    m_session->replan(std::move(inputs));
}

void ComparePage::onPlanChanged()
{
    if (!m_session->hasPlan()) {
        return;
    }
    const core::PlanDocument& plan = *m_session->plan();
    m_model->setPlan(plan);
    m_table->resizeColumnsToContents();
    const std::vector<core::PlanOption>& options = plan.results.options;
    m_title->setText(workloadNameText(plan.workload));
    const QString currency = currencyText(plan);
    if (options.empty()) {
        m_recommendation->setText(tr("<b>No offer meets every constraint.</b> The excluded list below says what each "
                                     "one missed; loosen the budget, the deadline or the scale."));
    } else {
        const core::PlanOption& best = options.front();
        // Names from the plan file go into rich text escaped: a shared plan cannot add markup or links.
        QString text =
            tr("<b>Recommended: %1 %2, %3 × %4 in %5</b> — about %6 (%7 to %8), %9")
                .arg(providerText(best).toHtmlEscaped(), QString::fromStdString(best.instanceType).toHtmlEscaped())
                .arg(best.gpus)
                .arg(QString::fromStdString(best.gpuName).toHtmlEscaped(),
                     QString::fromStdString(best.region).toHtmlEscaped())
                .arg(formatMoney(best.cost.value, currency),
                     formatMoney(best.cost.low, currency),
                     formatMoney(best.cost.high, currency),
                     formatHours(best.hours.value));
        if (const QString commitment = commitmentText(best.rankedMode(), plan.currency()); !commitment.isEmpty()) {
            // The cost above is this run's share of the term; the lab pays the whole term.
            text += tr("; commits the lab to %1").arg(commitment.toHtmlEscaped());
        }
        QStringList reasons;
        for (const core::Reason& r : best.reasons) {
            reasons << QStringLiteral("<li>%1</li>").arg(reasonText(r).toHtmlEscaped());
        }
        m_recommendation->setText(text + QStringLiteral("<ul style='margin:0'>") + reasons.join(QString())
                                  + QStringLiteral("</ul>"));
    }
    m_excluded->clear();
    std::map<std::string, QTreeWidgetItem*> groups;
    for (const core::PlanExclusion& x : plan.results.excluded) {
        QTreeWidgetItem*& group = groups[x.rule];
        if (!group) {
            group = new QTreeWidgetItem(m_excluded, {ruleText(QString::fromStdString(x.rule))});
        }
        new QTreeWidgetItem(group,
                            {QStringLiteral("%1 %2 (%3)")
                                 .arg(providerText(x.providerName, x.providerNameZh),
                                      QString::fromStdString(x.instanceType),
                                      QString::fromStdString(x.region)),
                             reasonText(x.reason)});
    }
    for (auto& [rule, group] : groups) {
        group->setText(0, tr("%1 (%2)").arg(group->text(0)).arg(group->childCount()));
    }
    m_excludedToggle->setText(tr("Excluded offers: %1").arg(plan.results.excluded.size()));
    if (!m_fromSliders) {
        resetSliders();
    }
    m_fromSliders = false;
    updateSliderLabels();
    if (m_proxy->rowCount() > 0) {
        m_table->selectRow(0);
    }
    showDetails();
}

void ComparePage::showDetails()
{
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    if (!current.isValid()) {
        m_details->clear();
        return;
    }
    const core::PlanOption& o = m_model->option(current.row());
    const core::PlanTraining& t = o.training;
    const core::PlanDocument* plan = m_session->plan();
    const QString currency = plan ? currencyText(*plan) : QString();
    const core::Currency planCurrency = plan ? plan->currency() : core::Currency::CNY;
    // Every text from the plan file goes in escaped, and only http(s) sources become links: a shared plan cannot add
    // markup, or a link to another scheme that the browser would open outside the program.
    QString html = QStringLiteral("<h3>%1 %2</h3>")
                       .arg(providerText(o).toHtmlEscaped(), QString::fromStdString(o.instanceType).toHtmlEscaped());
    html += tr("<p><b>GPU:</b> %1 × %2, %3 server(s); peak %4 TFLOPS (%5)</p>")
                .arg(o.gpus)
                .arg(QString::fromStdString(o.gpuName).toHtmlEscaped())
                .arg(o.nodes)
                .arg(formatNumber(t.peakTflops, 0), QString::fromStdString(t.peakUsed).toHtmlEscaped());
    if (t.gpuFigures == "low") {
        html += tr("<p><b>GPU figures:</b> third-party or derived, low confidence: the vendor publishes no "
                   "datasheet for this GPU</p>");
    }
    html += tr("<p><b>Efficiency:</b> %1 % (%2 to %3 %), from %4</p>")
                .arg(formatNumber(t.efficiency.value * 100, 0),
                     formatNumber(t.efficiency.low * 100, 0),
                     formatNumber(t.efficiency.high * 100, 0),
                     reasonText(t.efficiencyBasis).toHtmlEscaped());
    html += tr("<p><b>Scaling:</b> %1 % of linear</p>").arg(formatNumber(t.scaling.value * 100, 0));
    if (!t.stack.empty()) {
        html += tr("<p><b>Software stack:</b> %1</p>").arg(stackText(QString::fromStdString(t.stack)).toHtmlEscaped());
    }
    if (!t.limitedBy.empty()) {
        // A plan that names the limit has the time shares too; without them, no share is made up.
        const core::PlanTraining::TimeShares shares = t.timeShares.value_or(
            core::PlanTraining::TimeShares{.compute = NAN, .memoryBandwidth = NAN, .host = NAN, .communication = NAN});
        html += tr("<p><b>Limited by:</b> %1 (one GPU's time: compute %2 %, memory %3 %, host %4 %)</p>")
                    .arg(limiterText(QString::fromStdString(t.limitedBy)).toHtmlEscaped(),
                         formatNumber(shares.compute * 100, 0),
                         formatNumber(shares.memoryBandwidth * 100, 0),
                         formatNumber(shares.host * 100, 0));
        html += tr("<p><b>Range:</b> the published figure fell inside such a range about 80 % of the time when each "
                   "source was held out of the fit</p>");
    }
    if (t.userData) {
        html += tr("<p><b>Rests on your own measurement</b> of this workload on this GPU family.</p>");
    }
    html += tr("<p><b>Throughput:</b> %1 %2; training %3, setup %4, upload %5, checkpoints %6</p>")
                .arg(formatNumber(t.throughput.value, 0), throughputUnitText(QString::fromStdString(t.throughputUnit)))
                .arg(formatHours(t.hours.value),
                     formatHours(o.setupHours.value),
                     formatHours(o.transferHours.value),
                     formatHours(o.checkpointHours.value));
    html += tr("<p><b>Cost:</b> compute %1, storage %2, data transfer %3</p>")
                .arg(formatMoney(o.computeCost.value, currency),
                     formatMoney(o.storageCost.value, currency),
                     formatMoney(o.egressCost.value, currency));
    html += tr("<p><b>Prices</b> (source, the date each price is valid for):</p><ul>");
    for (const core::PlanMode& m : o.modes) {
        const core::PlanPrice& p = m.price;
        // A price paid under a term comes with the whole term's amount.
        const QString commitment = commitmentText(&m, planCurrency);
        const QString source = QString::fromStdString(p.source);
        const QString asOf = QString::fromStdString(p.asOf);
        const QUrl url(source, QUrl::StrictMode);
        const bool web =
            url.isValid() && (url.scheme() == QLatin1String("https") || url.scheme() == QLatin1String("http"));
        // A plan's mode by its short name ("on-demand"), as its reasons say it.
        html += QStringLiteral("<li>%1: %2 %3/%4")
                    .arg(planModeText(o, m).toHtmlEscaped())
                    .arg(formatNumber(p.amount, 3),
                         QString::fromLatin1(core::currencyCode(p.currency)).toHtmlEscaped(),
                         priceUnitText(p.unit).toHtmlEscaped())
                + (commitment.isEmpty() ? QString() : tr(", a commitment of %1").arg(commitment.toHtmlEscaped()))
                + QStringLiteral(" — %1 %2%3</li>")
                      .arg(web ? QStringLiteral("<a href=\"%1\">%2</a>").arg(source.toHtmlEscaped(), tr("source"))
                               : tr("source: %1").arg(source.toHtmlEscaped()),
                           asOf.isEmpty() ? tr("undated") : tr("as of %1").arg(asOf.toHtmlEscaped()),
                           m.eligible ? QString() : QStringLiteral(" (%1)").arg(reasonText(m.whyNot).toHtmlEscaped()));
    }
    html += QStringLiteral("</ul>");
    m_details->setHtml(html);
}

void ComparePage::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
    }
    QWidget::changeEvent(event);
}

void ComparePage::retranslate()
{
    findChild<QGroupBox*>(QStringLiteral("whatIfGroup"))->setTitle(tr("What if"));
    m_filter->setPlaceholderText(tr("Filter by provider, instance, GPU or region"));
    m_budget->setToolTip(tr("Re-plans with this budget; the right end is no limit."));
    m_deadline->setToolTip(tr("Re-plans with this deadline; the right end is none."));
    m_gpus->setToolTip(tr("Re-plans with at least this many GPUs."));
    m_spot->setToolTip(tr("Runs this share of the work on spot and the rest on demand, for offers with both prices."));
    m_rate->setToolTip(tr("Re-plans with this CNY per USD rate instead of the catalog's."));
    m_excluded->setHeaderLabels({tr("Offer"), tr("Why it was left out")});
    updateSliderLabels();
    if (m_session->hasPlan()) {
        onPlanChanged();
    }
}

} // namespace gpuplan::ui
