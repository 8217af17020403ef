#include "PlanSession.h"

#include "wording/ErrorText.h"
#include "workers/JobBoundary.h"

#include "gpuplan/plan/PlanFile.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace gpuplan::ui {

core::PlanDocument computePlan(const PlanningData& data, const PlanInputs& inputs)
{
    const core::Catalog& catalog = data.catalog->catalog;
    core::CostModel model;
    if (inputs.cnyPerUsd) {
        core::ExchangeRate rate;
        rate.cnyPerUsd = *inputs.cnyPerUsd;
        rate.userSet = true;
        rate.source.note = "entered by the user";
        rate.source.asOf = QDate::currentDate().toString(Qt::ISODate).toStdString();
        rate.source.retrieved = rate.source.asOf;
        model.exchangeRate = rate;
    }
    core::Planner planner(catalog, data.assumptions, data.calibration);
    const core::Recommendation r = planner.recommend(inputs.workload, inputs.constraints, model);
    const core::BuyVsRent buy =
        core::compareBuyVsRent(catalog,
                               data.ownership,
                               r.options.empty() ? std::string() : r.options.front().estimate.gpu->id,
                               inputs.constraints.currency,
                               core::planExchangeRate(catalog, model),
                               inputs.buyVsRent);
    return core::makePlanDocument(inputs.workload,
                                  inputs.constraints,
                                  catalog,
                                  r,
                                  QDateTime::currentDateTimeUtc().toString(Qt::ISODate).toStdString(),
                                  {},
                                  model,
                                  buy);
}

core::Result<std::shared_ptr<const PlanningData>> withMeasurement(const PlanningData& data,
                                                                  const core::CalibrationCase& measurement,
                                                                  const std::filesystem::path& userDir)
{
    core::Result<std::filesystem::path> saved = core::saveUserCalibration(measurement, userDir);
    if (!saved) {
        return saved.error();
    }
    auto updated = std::make_shared<PlanningData>(data);
    std::vector<core::Error> problems;
    core::Result<core::Calibration> calibration =
        core::Calibration::load(data.workloadDir, userDir, data.catalog->catalog, data.presets, problems);
    if (!calibration) {
        return calibration.error();
    }
    updated->calibration = std::move(calibration).value();
    return std::shared_ptr<const PlanningData>(std::move(updated));
}

std::optional<PlanInputs> inputsFromPlan(const core::PlanDocument& plan)
{
    if (!plan.workload.definition) {
        return std::nullopt;
    }
    PlanInputs inputs{*plan.workload.definition, plan.constraints, {}, std::nullopt};
    if (plan.exchangeRate && plan.exchangeRate->userSet) {
        inputs.cnyPerUsd = plan.exchangeRate->cnyPerUsd;
    }
    return inputs;
}

PlanSession::PlanSession(QObject* parent)
    : QObject(parent)
    , m_watcher(new QFutureWatcher<PlanJob>(this))
{
    connect(m_watcher, &QFutureWatcher<PlanJob>::finished, this, &PlanSession::onFinished);
}

PlanSession::~PlanSession()
{
    m_watcher->waitForFinished();
}

void PlanSession::setData(std::shared_ptr<const PlanningData> data)
{
    m_data = std::move(data);
}

bool PlanSession::isBusy() const
{
    return m_running.has_value();
}

void PlanSession::replan(PlanInputs inputs)
{
    if (!m_data || !m_data->canPlan()) {
        return;
    }
    if (m_running) {
        m_pending = std::move(inputs);
        return;
    }
    start(std::move(inputs));
}

void PlanSession::start(PlanInputs inputs)
{
    m_running = std::move(inputs);
    emit busyChanged(true);
    m_watcher->setFuture(QtConcurrent::run([data = m_data, inputs = *m_running] {
        // No document says the job failed (onFinished keeps the plan shown); see JobBoundary.h.
        return guardJob(
            "plan",
            [&] {
                PlanJob job;
                if (inputs.measurement) {
                    core::Result<std::shared_ptr<const PlanningData>> updated =
                        withMeasurement(*data, *inputs.measurement, core::userCalibrationDir());
                    if (updated) {
                        job.data = *updated;
                    } else {
                        job.unsavedMeasurement = errorMessage(updated.error());
                    }
                }
                job.plan = computePlan(job.data ? *job.data : *data, inputs);
                return job;
            },
            [](const core::Error&) { return PlanJob{}; });
    }));
}

void PlanSession::onFinished()
{
    PlanJob job = m_watcher->result();
    std::optional<core::PlanDocument> plan = std::move(job.plan);
    PlanInputs done = std::move(*m_running);
    m_running.reset();
    if (job.data) {
        // The measurement is in the calibration now: later plans use it without saving it again.
        m_data = std::move(job.data);
        if (m_pending) {
            m_pending->measurement.reset();
        }
    }
    done.measurement.reset();
    if (!job.unsavedMeasurement.isEmpty()) {
        emit measurementNotSaved(job.unsavedMeasurement);
    }
    if (!plan && !m_pending) {
        emit busyChanged(false);
        emit planFailed();
        return;
    }
    if (m_pending) {
        // Newer inputs arrived while this one ran: plan those; showing this one would only flicker.
        PlanInputs next = std::move(*m_pending);
        m_pending.reset();
        start(std::move(next));
        return;
    }
    // The verdicts of the plan's instances stay with it when its inputs change.
    if (m_plan) {
        plan->verifications = m_plan->verifications;
    }
    m_plan = std::move(plan);
    m_inputs = std::move(done);
    setModified(true);
    emit busyChanged(false);
    emit planChanged();
}

void PlanSession::waitForIdle()
{
    while (m_running) {
        m_watcher->waitForFinished();
        QCoreApplication::processEvents(); // delivers finished(), which may start the pending inputs
    }
}

core::Status PlanSession::save(const QString& path)
{
    if (!m_plan) {
        return frontEndError(core::ErrorCode::InvalidArgument, tr("there is no plan to save"), path.toStdString());
    }
    core::Status saved = core::savePlan(path.toStdString(), *m_plan);
    if (saved) {
        m_filePath = path;
        setModified(false);
    }
    return saved;
}

core::Status PlanSession::open(const QString& path)
{
    core::Result<core::PlanDocument> plan = core::loadPlan(path.toStdString());
    if (!plan) {
        return plan.error();
    }
    std::optional<PlanInputs> inputs = inputsFromPlan(*plan);
    m_filePath = path;
    setPlan(std::move(plan).value(), std::move(inputs), false);
    return core::Ok{};
}

void PlanSession::setPlan(core::PlanDocument plan, std::optional<PlanInputs> inputs, bool modified)
{
    m_plan = std::move(plan);
    m_inputs = std::move(inputs);
    if (modified) {
        m_filePath.clear();
    }
    setModified(modified);
    emit planChanged();
}

void PlanSession::addVerification(const core::PlanVerification& verification)
{
    if (!m_plan) {
        return;
    }
    m_plan->verifications.push_back(verification);
    setModified(true);
    emit planChanged();
}

void PlanSession::setModified(bool modified)
{
    if (m_modified != modified) {
        m_modified = modified;
        emit modifiedChanged(modified);
    }
}

} // namespace gpuplan::ui
