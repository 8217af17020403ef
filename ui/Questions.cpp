#include "Questions.h"

#include <map>

namespace gpuplan::ui {

namespace {

std::map<Question, QVariant>& nextAnswers()
{
    static std::map<Question, QVariant> answers;
    return answers;
}

std::map<Question, QString>& lastQuestions()
{
    static std::map<Question, QString> asked;
    return asked;
}

} // namespace

void Questions::setNextAnswer(Question kind, const QVariant& answer)
{
    nextAnswers()[kind] = answer;
}

std::optional<QVariant> Questions::takeNextAnswer(Question kind)
{
    auto& answers = nextAnswers();
    const auto it = answers.find(kind);
    if (it == answers.end()) {
        return std::nullopt;
    }
    QVariant answer = it->second;
    answers.erase(it);
    return answer;
}

void Questions::recordAsked(Question kind, const QString& text)
{
    lastQuestions()[kind] = text;
}

QString Questions::lastAsked(Question kind)
{
    const auto it = lastQuestions().find(kind);
    return it == lastQuestions().end() ? QString() : it->second;
}

} // namespace gpuplan::ui
