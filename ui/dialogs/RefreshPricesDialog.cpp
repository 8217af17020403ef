#include "RefreshPricesDialog.h"

#include "models/OfferTableModel.h"
#include "secrets/CredentialStore.h"
#include "wording/ErrorText.h"
#include "wording/PlanText.h"

#include "gpuplan/net/HttpClient.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace gpuplan::ui {

namespace {

QString qs(const std::string& text)
{
    return QString::fromStdString(text);
}

} // namespace

RefreshPricesDialog::RefreshPricesDialog(core::Catalog catalog,
                                         std::filesystem::path pricesDir,
                                         CredentialStore* store,
                                         QWidget* parent)
    : QDialog(parent)
    , m_catalog(std::move(catalog))
    , m_pricesDir(std::move(pricesDir))
    , m_store(store)
    , m_provider(new QComboBox(this))
    , m_status(new QLabel(this))
    , m_progress(new QProgressBar(this))
    , m_summary(new QTextBrowser(this))
    , m_job(this, [this](bool busy) {
        m_refresh->setEnabled(!busy);
        m_provider->setEnabled(!busy);
        m_close->setEnabled(!busy);
        m_cancel->setEnabled(busy);
    })
{
    setObjectName(QStringLiteral("refreshPricesDialog"));
    setWindowTitle(tr("Refresh prices"));
    m_provider->setObjectName(QStringLiteral("refreshProviderCombo"));
    m_provider->addItem(tr("AWS (Price List; spot prices with your key)"), QStringLiteral("aws"));
    m_provider->addItem(tr("Azure (Retail Prices API)"), QStringLiteral("azure"));
    m_provider->addItem(tr("Google Cloud (Cloud Billing Catalog, your service account)"), QStringLiteral("gcp"));
    m_provider->addItem(tr("Lambda (your API key)"), QStringLiteral("lambda"));
    m_provider->addItem(tr("Alibaba Cloud (price inquiry, your AccessKey)"), QStringLiteral("alibaba"));
    m_provider->addItem(tr("Tencent Cloud (price inquiry, your SecretId)"), QStringLiteral("tencent"));
    m_provider->addItem(tr("Huawei Cloud (BSS price inquiry, your AK/SK)"), QStringLiteral("huawei"));
    m_provider->addItem(tr("Paperspace (no price API: its prices stay the bundled ones)"),
                        QStringLiteral("paperspace"));
    if (auto* model = qobject_cast<QStandardItemModel*>(m_provider->model())) {
        model->item(m_provider->count() - 1)->setEnabled(false);
    }
    m_status->setObjectName(QStringLiteral("refreshStatusLabel"));
    m_status->setWordWrap(true);
    m_status->setText(tr("Reads the provider's current prices and lays them over the bundled ones. AWS and Azure "
                         "publish theirs; the others answer with the credential you stored under Credentials."));
    m_progress->setObjectName(QStringLiteral("refreshProgressBar"));
    m_progress->setRange(0, 100);
    m_progress->setValue(0);
    m_summary->setObjectName(QStringLiteral("refreshSummary"));
    m_summary->setOpenExternalLinks(true);

    auto* buttons = new QDialogButtonBox(this);
    m_refresh = buttons->addButton(tr("Refresh"), QDialogButtonBox::ActionRole);
    m_refresh->setObjectName(QStringLiteral("refreshStartButton"));
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("refreshCancelButton"));
    m_cancel->setEnabled(false);
    m_close = buttons->addButton(QDialogButtonBox::Close);
    m_close->setObjectName(QStringLiteral("refreshCloseButton"));

    auto* form = new QFormLayout;
    form->addRow(tr("Provider:"), m_provider);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_status);
    layout->addWidget(m_progress);
    layout->addWidget(m_summary, 1);
    layout->addWidget(buttons);
    resize(720, 480);

    connect(m_refresh, &QPushButton::clicked, this, &RefreshPricesDialog::start);
    connect(m_cancel, &QPushButton::clicked, this, &RefreshPricesDialog::cancel);
    connect(m_close, &QPushButton::clicked, this, &QDialog::accept);
}

void RefreshPricesDialog::start()
{
    m_job.begin();
    m_summary->clear();
    m_progress->setRange(0, 0); // busy until a size is known
    m_status->setText(tr("Reading the price list…"));
    const std::string provider = m_provider->currentData().toString().toStdString();
    if (!core::priceListNeedsCredential(provider) || !m_store) {
        run(provider, {});
        return;
    }
    m_store->load(QString::fromStdString(provider),
                  m_job.guarded([this, provider](const core::Result<core::Credential>& credential) {
                      core::Result<core::PriceListAccess> access = core::priceListAccessFrom(provider, credential);
                      if (access) {
                          run(provider, std::move(access).value());
                          return;
                      }
                      finished(access.error());
                  }));
}

void RefreshPricesDialog::run(const std::string& provider, core::PriceListAccess access)
{
    const auto show = m_job.onUiThread<core::Reason, std::uint64_t, std::uint64_t, bool>(
        [this](const core::Reason& what, std::uint64_t done, std::uint64_t total, bool bytes) {
            showProgress(errorReasonText(what), done, total, bytes);
        });
    m_job.run(
        "refresh prices",
        [catalog = m_catalog, provider, dir = m_pricesDir, access = std::move(access), show](PageJob::Token cancel) {
            const core::RefreshProgress progress =
                [show, cancel](const core::Reason& what, std::uint64_t done, std::uint64_t total, bool bytes) {
                    show(what, done, total, bytes);
                    return !cancel->cancelled();
                };
            core::initializeHttp();
            core::HttpClient http;
            return core::refreshProviderPrices(http, provider, catalog, {}, dir, access, progress, cancel.get());
        },
        [this](const core::Result<core::PriceRefresh>& result) { finished(result); });
}

void RefreshPricesDialog::cancel()
{
    m_job.cancel();
    m_cancel->setEnabled(false);
    m_status->setText(tr("Cancelling…"));
}

void RefreshPricesDialog::showProgress(const QString& what, quint64 done, quint64 total, bool bytes)
{
    if (!m_cancel->isEnabled()) {
        return; // cancelling or done
    }
    if (total > 0) {
        m_progress->setRange(0, 100);
        m_progress->setValue(int(std::min<quint64>(100, done * 100 / total)));
    }
    if (bytes) {
        m_status->setText(tr("%1: %2 of %3 MB").arg(what).arg(done >> 20).arg(total >> 20));
    } else {
        m_status->setText(total > 1 ? tr("%1 (%2 of %3)").arg(what).arg(done + 1).arg(total) : what);
    }
}

void RefreshPricesDialog::finished(const core::Result<core::PriceRefresh>& result)
{
    m_job.end();
    m_progress->setRange(0, 100);
    if (!result) {
        m_progress->setValue(0);
        m_status->setText(
            result.error().code == core::ErrorCode::Cancelled
                ? tr("Cancelled: nothing was changed.")
                : tr("The prices could not be read; nothing was changed.\n%1").arg(errorMessage(result.error())));
        return;
    }
    m_progress->setValue(100);
    const core::PriceRefresh& r = *result;
    m_status->setText(tr("%n price(s) as of %1 read for the catalog's offers: %2 changed or new, %3 unchanged. "
                         "Plans use them from now on.",
                         nullptr,
                         int(r.prices.size()))
                          .arg(qs(r.asOf))
                          .arg(r.changes.size())
                          .arg(r.unchanged));
    QString html = QStringLiteral("<table cellspacing=\"6\"><tr><th align=\"left\">%1</th><th align=\"left\">%2</th>"
                                  "<th align=\"left\">%3</th><th align=\"right\">%4</th><th align=\"right\">%5</th>"
                                  "<th align=\"right\">%6</th></tr>")
                       .arg(tr("Instance"), tr("Region"), tr("Mode"), tr("Before"), tr("Now"), tr("Change"));
    for (const core::PriceChange& c : r.changes) {
        const QString change = c.before && *c.before > 0
                                   ? QStringLiteral("%1%2 %")
                                         .arg(c.after >= *c.before ? QStringLiteral("+") : QString())
                                         .arg((c.after / *c.before - 1) * 100, 0, 'f', 1)
                                   : tr("new");
        html += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td align=\"right\">%4</td>"
                               "<td align=\"right\">%5</td><td align=\"right\">%6</td></tr>")
                    .arg(qs(c.instanceType).toHtmlEscaped(),
                         qs(c.region).toHtmlEscaped(),
                         pricingModeUnitText(c.mode),
                         c.before ? qs(core::formatMoney(*c.before, c.currency)) : QStringLiteral("—"),
                         qs(core::formatMoney(c.after, c.currency)),
                         change);
    }
    html += QStringLiteral("</table>");
    for (const core::RefreshNote& note : r.notes) {
        // A note, then the error of the request it is about, when one failed ("x in r, Month: answered HTTP 400").
        const QString said = note.cause ? tr("%1: %2").arg(errorReasonText(note.reason), errorDetailText(*note.cause))
                                        : errorReasonText(note.reason);
        html += QStringLiteral("<p>%1</p>").arg(said.toHtmlEscaped());
    }
    m_summary->setHtml(html);
    emit pricesRefreshed();
}

} // namespace gpuplan::ui
