#include "CatalogPage.h"

#include "models/OfferTableModel.h"

#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace gpuplan::ui {

namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

QString link(const core::Source& source)
{
    const QString url = qs(source.url).toHtmlEscaped();
    return QStringLiteral("<a href=\"%1\">%1</a> (%2)").arg(url, qs(source.date).toHtmlEscaped());
}

} // namespace

CatalogPage::CatalogPage(QWidget* parent)
    : QWidget(parent)
    , m_model(new OfferTableModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_title(new QLabel(this))
    , m_subtitle(new QLabel(this))
    , m_filter(new QLineEdit(this))
    , m_table(new QTableView(this))
    , m_count(new QLabel(this))
    , m_details(new QLabel(this))
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
    // Columns fit their content; the region column takes what is left and elides (full list in its tooltip),
    // so the price columns stay on screen without scrolling.
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(OfferTableModel::RegionColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setMinimumSectionSize(60);

    m_count->setObjectName(QStringLiteral("catalogCountLabel"));
    m_details->setObjectName(QStringLiteral("catalogDetailsLabel"));
    m_details->setWordWrap(true);
    m_details->setTextFormat(Qt::RichText);
    m_details->setOpenExternalLinks(true);
    m_details->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_details->setMinimumHeight(m_details->fontMetrics().lineSpacing() * 5);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_subtitle);
    layout->addWidget(m_filter);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_count);
    layout->addWidget(m_details);

    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);
    connect(m_filter, &QLineEdit::textChanged, this, &CatalogPage::updateCountLabel);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &CatalogPage::updateCountLabel);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &CatalogPage::showDetails);

    retranslate();
}

void CatalogPage::setCatalog(const core::Catalog& catalog)
{
    m_loadFailure.clear();
    core::Result<std::vector<core::Offer>> offers = catalog.select({});
    m_model->setRows(offers ? catalog.regionalOffers(*offers) : std::vector<core::RegionalOffer>{});
    updateCountLabel();
    showDetails();
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
    m_filter->setPlaceholderText(tr("Filter by provider, instance, GPU or region, e.g. A100"));
    m_filter->setToolTip(tr("Shows only the rows where some column contains this text (case does not matter)."));
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
                          pricingModeText(price.mode),
                          qs(core::formatMoney(price.amount, price.currency)),
                          link(price.source));
    }
    lines << tr("Instance specifications: %1").arg(link(row->offer.specSource));
    lines << tr("GPU datasheet: %1").arg(link(row->gpu.source));
    if (!row->offer.notes.empty()) {
        lines << tr("Notes: %1").arg(qs(row->offer.notes).toHtmlEscaped());
    }
    m_details->setText(lines.join(QStringLiteral("<br>")));
}

} // namespace gpuplan::ui
