#include "CatalogPage.h"

#include "AppSettings.h"
#include "wording/CatalogText.h"
#include "wording/ErrorText.h"
#include "wording/PlanText.h"

#include "models/OfferTableModel.h"
#include "widgets/WheelGuard.h"

#include <algorithm>
#include <cmath>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

namespace gpuplan::ui {

namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

/// A link whose text stays short enough not to widen the window: long addresses are elided in the middle.
QString shortLink(const std::string& address)
{
    const QString url = qs(address);
    const QString text = url.size() > 72 ? url.left(44) + QStringLiteral("…") + url.right(26) : url;
    return QStringLiteral("<a href=\"%1\" title=\"%1\">%2</a>").arg(url.toHtmlEscaped(), text.toHtmlEscaped());
}

QString link(const core::Source& source)
{
    return QStringLiteral("%1 (%2)").arg(
        shortLink(source.url), source.asOf.empty() ? CatalogPage::tr("undated") : qs(source.asOf).toHtmlEscaped());
}

/// "gcp.json: $.offers[7].prices[0]" for a finding's "/long/path/gcp.json: $.offers[7].prices[0]".
QString shortWhere(const std::string& where)
{
    const QString text = qs(where);
    const int pathEnd = text.indexOf(QStringLiteral(": $"));
    const QString file = pathEnd < 0 ? text : text.left(pathEnd);
    const int slash = file.lastIndexOf(QLatin1Char('/'));
    return slash < 0 ? text : text.mid(slash + 1);
}

QString granularityText(core::Billing::Granularity granularity)
{
    switch (granularity) {
        case core::Billing::Granularity::Second:
            return CatalogPage::tr("second");
        case core::Billing::Granularity::Minute:
            return CatalogPage::tr("minute");
        case core::Billing::Granularity::Hour:
            return CatalogPage::tr("hour");
    }
    return {};
}

constexpr auto kCurrencySetting = "display/currency";

} // namespace

CatalogPage::CatalogPage(QWidget* parent)
    : QWidget(parent)
    , m_model(new OfferTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_title(new QLabel(this))
    , m_subtitle(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_currencyLabel(new QLabel(this))
    , m_currency(new QComboBox(this))
    , m_rate(new QDoubleSpinBox(this))
    , m_resetRate(new QPushButton(this))
    , m_rateLabel(new QLabel(this))
    , m_table(new QTableView(this))
    , m_count(new QLabel(this))
    , m_details(new QLabel(this))
    , m_findingsLabel(new QLabel(this))
    , m_findings(new QListWidget(this))
{
    setObjectName(QStringLiteral("catalogPage"));
    m_title->setObjectName(QStringLiteral("catalogTitleLabel"));
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_subtitle->setObjectName(QStringLiteral("catalogSubtitleLabel"));
    m_subtitle->setWordWrap(true);

    m_filter->setObjectName(QStringLiteral("catalogFilterEdit"));
    m_filter->setClearButtonEnabled(true);

    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(OfferTableModel::SortRole);
    m_proxy->setFilterKeyColumn(-1); // any column
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_table->setObjectName(QStringLiteral("catalogTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(OfferTableModel::ProviderColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    // Columns fit their content up to a cap (fitColumns) and elide beyond it; the last one takes what is left.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->horizontalHeader()->setMinimumSectionSize(60);

    m_count->setObjectName(QStringLiteral("catalogCountLabel"));
    m_details->setObjectName(QStringLiteral("catalogDetailsLabel"));
    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::RichText);
    m_details->setOpenExternalLinks(true);
    m_details->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_details->setMinimumHeight(m_details->fontMetrics().lineSpacing() * 5);

    m_currency->setObjectName(QStringLiteral("displayCurrencyComboBox"));
    m_currency->addItem(QString(), QString());
    m_currency->addItem(QStringLiteral("CNY"), QStringLiteral("CNY"));
    m_currency->addItem(QStringLiteral("USD"), QStringLiteral("USD"));
    m_rate->setObjectName(QStringLiteral("exchangeRateSpinBox"));
    m_rate->setRange(0.5, 50);
    m_rate->setDecimals(4);
    m_rate->setSingleStep(0.01);
    m_rate->setKeyboardTracking(false);
    WheelGuard::install({m_rate}); // every price converted with it; changed on purpose only
    m_resetRate->setObjectName(QStringLiteral("resetExchangeRateButton"));
    m_rateLabel->setObjectName(QStringLiteral("exchangeRateLabel"));
    m_rateLabel->setTextFormat(Qt::RichText);
    m_rateLabel->setWordWrap(true);
    m_rateLabel->setOpenExternalLinks(true);
    m_findingsLabel->setObjectName(QStringLiteral("catalogFindingsLabel"));
    m_findings->setObjectName(QStringLiteral("catalogFindingsList"));
    m_findings->setMaximumHeight(m_findings->fontMetrics().lineSpacing() * 5);
    m_findings->setWordWrap(true);

    QSettings settings;
    m_currency->setCurrentIndex(std::max(0, m_currency->findData(settings.value(kCurrencySetting).toString())));

    m_refreshPrices = new QPushButton(this);
    m_refreshPrices->setObjectName(QStringLiteral("refreshPricesButton"));
    connect(m_refreshPrices, &QPushButton::clicked, this, &CatalogPage::refreshPricesRequested);
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_filter, 1);
    controls->addWidget(m_currencyLabel);
    controls->addWidget(m_currency);
    controls->addWidget(m_rate);
    controls->addWidget(m_resetRate);
    controls->addWidget(m_refreshPrices);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_subtitle);
    layout->addLayout(controls);
    layout->addWidget(m_rateLabel);
    // The table gets most of the height; the user can drag the divider to read long source notes.
    auto* below = new QWidget(this);
    auto* belowLayout = new QVBoxLayout(below);
    belowLayout->setContentsMargins(0, 0, 0, 0);
    belowLayout->addWidget(m_count);
    belowLayout->addWidget(m_details);
    belowLayout->addWidget(m_findingsLabel);
    belowLayout->addWidget(m_findings);
    belowLayout->addStretch(1);
    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("catalogSplitter"));
    splitter->setChildrenCollapsible(false);
    auto* belowScroll = new QScrollArea(this);
    belowScroll->setWidget(below);
    belowScroll->setWidgetResizable(true);
    belowScroll->setFrameShape(QFrame::NoFrame);
    splitter->addWidget(m_table);
    splitter->addWidget(belowScroll);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_filter, &QLineEdit::textChanged, this, &CatalogPage::updateCountLabel);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &CatalogPage::updateCountLabel);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CatalogPage::showDetails);
    connect(m_currency, &QComboBox::currentIndexChanged, this, [this] {
        QSettings().setValue(kCurrencySetting, m_currency->currentData().toString());
        applyDisplayCurrency();
    });
    connect(m_rate, &QDoubleSpinBox::valueChanged, this, [this](double value) {
        // Only a rate that differs from the catalog's is the user's own.
        if (!m_catalogRate || std::abs(value - m_catalogRate->cnyPerUsd) > 1e-9) {
            AppSettings().setCnyPerUsd(value); // the same rate Settings shows and new plans use
        } else {
            AppSettings().setCnyPerUsd(std::nullopt);
        }
        applyDisplayCurrency();
    });
    connect(m_resetRate, &QPushButton::clicked, this, [this] {
        AppSettings().setCnyPerUsd(std::nullopt);
        if (m_catalogRate) {
            m_rate->setValue(m_catalogRate->cnyPerUsd);
        }
        applyDisplayCurrency();
    });

    retranslate();
}

void CatalogPage::setCatalog(const core::Catalog& catalog,
                             const std::vector<core::Error>& problems,
                             const std::vector<core::Finding>& findings)
{
    m_loadFailure.clear();
    m_catalogRate = catalog.exchangeRate();
    m_problems = problems;
    m_findingList = findings;
    core::Result<std::vector<core::Offer>> offers = catalog.select({});
    m_model->setRows(offers ? catalog.regionalOffers(*offers) : std::vector<core::RegionalOffer>{});
    fitColumns();
    const QSignalBlocker blocker(m_rate);
    const std::optional<double> userRate = AppSettings().cnyPerUsd();
    m_rate->setValue(userRate ? *userRate : (m_catalogRate ? m_catalogRate->cnyPerUsd : 7.0));
    applyDisplayCurrency();
    fillFindings();
    updateCountLabel();
    showDetails();
}

void CatalogPage::fitColumns()
{
    // Fit the content, but no column wider than a long instance name needs: the rest elide (full text in
    // the details below), so the price columns stay in view.
    const int widest = m_table->fontMetrics().horizontalAdvance(QStringLiteral("p6-b200.48xlarge")) + 12;
    m_table->resizeColumnsToContents();
    for (int column = 0; column < OfferTableModel::ColumnCount; ++column) {
        if (m_table->columnWidth(column) > widest) {
            m_table->setColumnWidth(column, widest);
        }
    }
}

std::optional<core::ExchangeRate> CatalogPage::effectiveRate() const
{
    if (const std::optional<double> userRate = AppSettings().cnyPerUsd(); userRate && *userRate > 0) {
        return core::ExchangeRate{*userRate, {}, true};
    }
    return m_catalogRate;
}

void CatalogPage::applyDisplayCurrency()
{
    const std::optional<core::Currency> currency =
        core::parseCurrency(m_currency->currentData().toString().toStdString());
    m_model->setDisplayCurrency(currency, effectiveRate());
    m_rate->setEnabled(currency.has_value());
    m_resetRate->setEnabled(currency.has_value() && effectiveRate() && effectiveRate()->userSet);
    updateRateLabel();
}

void CatalogPage::updateRateLabel()
{
    const std::optional<core::ExchangeRate> rate = effectiveRate();
    if (!rate) {
        m_rateLabel->setText(tr("No exchange rate in the catalog: prices are shown in their own currency."));
    } else if (rate->userSet) {
        m_rateLabel->setText(tr("1 USD = %1 CNY, set by you. Prices stay in their own currency in the catalog; "
                                "\"≈\" marks a converted price.")
                                 .arg(rate->cnyPerUsd, 0, 'f', 4));
    } else {
        m_rateLabel->setText(tr("1 USD = %1 CNY as of %2 (%3). Prices stay in their own currency in the catalog; "
                                "\"≈\" marks a converted price.")
                                 .arg(rate->cnyPerUsd, 0, 'f', 4)
                                 .arg(qs(rate->source.asOfOrUndated()).toHtmlEscaped(), shortLink(rate->source.url)));
    }
}

void CatalogPage::fillFindings()
{
    m_findings->clear();
    for (const core::Error& problem : m_problems) {
        const QString text = shortWhere(problem.where) + QStringLiteral(": ") + errorDetailText(problem);
        auto* item = new QListWidgetItem(tr("Left out — %1").arg(text), m_findings);
        item->setToolTip(errorMessage(problem));
        item->setForeground(QColor(180, 0, 0)); // dark red reads on light and dark backgrounds alike
    }
    for (const core::Finding& finding : m_findingList) {
        const QString detail = findingDetailText(finding);
        const QString text = shortWhere(finding.where) + QStringLiteral(": ") + detail;
        auto* item = new QListWidgetItem(tr("Check — %1: %2").arg(findingKindText(finding.kind), text), m_findings);
        item->setToolTip(qs(finding.where) + QStringLiteral(": ") + detail);
    }
    const int count = m_findings->count();
    m_findingsLabel->setText(count == 0 ? tr("Catalog checks: every entry loaded and every price passed the checks.")
                                        : tr("Catalog checks: %n finding(s) to look at", nullptr, count));
    m_findings->setVisible(count > 0);
}

void CatalogPage::setLoadFailure(const QString& message)
{
    m_loadFailure = message;
    m_model->setRows({});
    updateCountLabel();
}

void CatalogPage::retranslate()
{
    m_title->setText(tr("Cloud GPU catalog"));
    m_subtitle->setText(tr("Every price and specification cites its source and date: select a row, or hover a price, "
                           "to see them. \"unknown\" means no published price was found; none is guessed."));
    m_refreshPrices->setText(tr("Refresh prices…"));
    m_refreshPrices->setToolTip(tr("Read the providers' current public price lists (AWS, Azure) and show what "
                                   "changed"));
    m_filter->setPlaceholderText(tr("Filter by provider, instance, GPU or region, e.g. A100"));
    m_filter->setToolTip(tr("Shows only the rows where some column contains this text (case does not matter)."));
    m_currencyLabel->setText(tr("Show prices in:"));
    m_currency->setItemText(0, tr("their own currency"));
    m_currency->setToolTip(tr("Converts the prices shown with the exchange rate at the right; the catalog keeps "
                              "each price in the provider's own currency."));
    m_rate->setPrefix(tr("1 USD = "));
    m_rate->setSuffix(tr(" CNY"));
    m_rate->setToolTip(tr("The exchange rate used for display. Set today's rate if the catalog's is old."));
    m_resetRate->setText(tr("Use catalog rate"));
    updateRateLabel();
    fillFindings();
    m_model->retranslate();
    updateCountLabel();
    showDetails();
}

void CatalogPage::updateCountLabel()
{
    if (!m_loadFailure.isEmpty()) {
        m_count->setText(tr("The catalog could not be loaded: %1").arg(m_loadFailure));
        return;
    }
    m_count->setText(tr("Showing %1 of %n offer row(s)", nullptr, m_model->rowCount()).arg(m_proxy->rowCount()));
}

void CatalogPage::showDetails()
{
    const QModelIndex current = m_proxy->mapToSource(m_table->currentIndex());
    const core::RegionalOffer* row = current.isValid() ? m_model->rowAt(current.row()) : nullptr;
    if (!row) {
        m_details->setText(tr("Select a row to see where its figures come from."));
        return;
    }
    QStringList lines;
    lines << QStringLiteral("<b>%1</b> · %2 · %3 × %4")
                 .arg(qs(row->offer.instanceType).toHtmlEscaped(),
                      providerName(row->provider).toHtmlEscaped(),
                      qs(row->gpu.name).toHtmlEscaped())
                 .arg(row->offer.gpuCount);
    if (row->offer.prices.empty()) {
        lines << tr("Price: unknown. No published price was found; none is guessed.");
    }
    for (const core::Price& price : row->offer.prices) {
        lines << tr("%1, %2: %3 — source: %4")
                     .arg(qs(price.region).toHtmlEscaped(),
                          pricingModeUnitText(price.mode),
                          qs(core::formatMoney(price.amount, price.currency)),
                          link(price.source));
    }
    lines << tr("Instance specifications: %1").arg(link(row->offer.specSource));
    QStringList facts;
    if (const QString features = featuresText(row->offer); !features.isEmpty()) {
        facts << features;
    }
    if (!row->offer.rdmaNote.empty()) {
        facts << qs(row->offer.rdmaNote).toHtmlEscaped();
    }
    if (!row->offer.compliance.empty()) {
        QStringList programmes;
        for (const std::string& programme : row->offer.compliance) {
            programmes << qs(programme).toHtmlEscaped();
        }
        facts << tr("compliance: %1").arg(programmes.join(QStringLiteral(", ")));
    }
    if (row->offer.billing) {
        facts << tr("billed per %1, minimum %n s", nullptr, row->offer.billing->minimumSeconds)
                     .arg(granularityText(row->offer.billing->granularity));
    }
    if (!facts.isEmpty()) {
        lines << facts.join(QStringLiteral(" · "));
    }
    if (row->offer.origin != core::OfferOrigin::Bundled) {
        lines << tr("From your own catalog: %1").arg(qs(row->offer.location).toHtmlEscaped());
    }
    lines << tr("GPU datasheet: %1").arg(link(row->gpu.source));
    if (!row->offer.notes.empty()) {
        lines << tr("Notes: %1").arg(qs(row->offer.notes).toHtmlEscaped());
    }
    m_details->setText(lines.join(QStringLiteral("<br>")));
}

} // namespace gpuplan::ui
