// SPDX-License-Identifier: Apache-2.0
#include "stop_words.hpp"

#include <algorithm>

namespace starling::bm25 {
namespace {

// German: function words that carry no topic.
constexpr std::string_view german[] = {
    "aber", "alle", "allem", "allen", "aller", "alles", "als", "also", "am", "an", "andere", "anderem",
    "anderen", "anderer", "anderes", "auch", "auf", "aus", "bei", "bis", "bist", "da", "damit", "dann", "das",
    "dass", "dein", "deine", "dem", "den", "denn", "der", "des", "dich", "die", "dies", "diese", "diesem",
    "diesen", "dieser", "dieses", "dir", "doch", "dort", "du", "durch", "ein", "eine", "einem", "einen",
    "einer", "eines", "er", "es", "etwas", "euch", "euer", "eure", "für", "gegen", "habe", "haben", "hatte",
    "hier", "ich", "ihm", "ihn", "ihnen", "ihr", "ihre", "ihrem", "ihren", "im", "in", "ist", "ja", "jede",
    "jedem", "jeden", "jeder", "jedes", "kann", "kein", "keine", "keinem", "keinen", "mein", "meine",
    "meinem", "meinen", "mich", "mir", "mit", "muss", "nach", "nicht", "noch", "nun", "nur", "ob", "oder",
    "ohne", "sehr", "sein", "seine", "seinem", "seinen", "sich", "sie", "sind", "soll", "über", "um", "und",
    "uns", "unser", "unsere", "unter", "viel", "vom", "von", "vor", "wenn", "wer", "wie", "wir", "wird", "wo",
    "zu", "zum", "zur",
};

// English: function words that carry no topic.
constexpr std::string_view english[] = {
    "i", "me", "my", "myself", "we", "our", "ours", "ourselves", "you", "your", "yours", "yourself",
    "yourselves", "he", "him", "his", "himself", "she", "her", "hers", "herself", "it", "its", "itself",
    "they", "them", "their", "theirs", "themselves", "what", "which", "who", "whom", "whose", "this", "that",
    "these", "those", "am", "is", "are", "was", "were", "be", "been", "being", "have", "has", "had", "having",
    "do", "does", "did", "doing", "a", "an", "the", "and", "but", "if", "or", "because", "as", "until",
    "while", "of", "at", "by", "for", "with", "about", "against", "between", "into", "through", "during",
    "before", "after", "above", "below", "to", "from", "up", "down", "in", "out", "on", "off", "over",
    "under", "again", "further", "then", "once", "here", "there", "when", "where", "why", "how", "all", "any",
    "both", "each", "few", "more", "most", "other", "some", "such", "no", "nor", "not", "only", "own", "same",
    "so", "than", "too", "very", "s", "t", "can", "will", "just", "don", "should", "now", "d", "ll", "m", "o",
    "re", "ve", "y", "didn", "doesn", "isn", "wasn", "aren", "couldn", "shouldn", "wouldn", "hasn", "haven",
    "hadn", "weren", "mustn", "needn", "would", "could", "might",
};

// Spanish: function words that carry no topic.
constexpr std::string_view spanish[] = {
    "a", "al", "algo", "algunas", "algunos", "ante", "antes", "como", "con", "contra", "cual", "cuando", "de",
    "del", "desde", "donde", "durante", "e", "el", "él", "ella", "ellas", "ellos", "en", "entre", "era", "es",
    "esa", "esas", "ese", "eso", "esos", "esta", "está", "están", "estas", "este", "esto", "estos", "estoy",
    "fue", "ha", "había", "han", "hasta", "hay", "la", "las", "le", "les", "lo", "los", "me", "mi", "mí",
    "mis", "mucho", "muchos", "muy", "más", "nada", "ni", "no", "nos", "nosotros", "o", "os", "otra", "otras",
    "otro", "otros", "para", "pero", "poco", "por", "porque", "que", "qué", "quien", "quienes", "se", "ser",
    "si", "sí", "sin", "sobre", "soy", "su", "sus", "también", "tanto", "te", "ti", "todo", "todos", "tu",
    "tú", "tus", "un", "una", "uno", "unos", "y", "ya", "yo",
};

// French: function words that carry no topic.
constexpr std::string_view french[] = {
    "au", "aux", "avec", "ce", "ces", "cette", "dans", "de", "des", "du", "elle", "elles", "en", "et", "eux",
    "il", "ils", "je", "la", "le", "les", "leur", "leurs", "lui", "ma", "mais", "me", "même", "mes", "moi",
    "mon", "ne", "nos", "notre", "nous", "ou", "où", "par", "pas", "qu", "que", "qui", "sa", "se", "ses",
    "sur", "ta", "te", "tes", "toi", "tu", "un", "une", "vos", "votre", "vous", "c", "d", "j", "l", "à", "m",
    "n", "s", "t", "y", "été", "être", "est", "sont", "ai", "avons", "avez", "ont", "était",
};

constexpr BuiltInStopWords lists[] = {
    {"de", german},
    {"en", english},
    {"es", spanish},
    {"fr", french},
};

} // namespace

std::span<const BuiltInStopWords> built_in_stop_words() noexcept { return lists; }

const BuiltInStopWords *find_built_in_stop_words(std::string_view language) noexcept {
    const auto found = std::find_if(std::begin(lists), std::end(lists),
                                    [&](const BuiltInStopWords &list) { return list.language == language; });
    return found == std::end(lists) ? nullptr : &*found;
}

} // namespace starling::bm25
