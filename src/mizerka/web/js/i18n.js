// Translations: English, Polish and Russian, switchable at run time.
//
// Strings live in one catalogue per language.  A plural entry is an object keyed by the CLDR plural
// categories that `Intl.PluralRules` returns for that language (Polish and Russian have one/few/many,
// English one/other), so "1 lewa / 2 lewy / 5 lew" and "1 взятка / 2 взятки / 5 взяток" come out right.
// Card and contract names follow each language's own card-table usage.

export const LANGUAGES = { en: "English", pl: "Polski", ru: "Русский" };

// Suits in the engine's order: clubs, diamonds, hearts, spades (card = 13 * suit + rank).
const CARD_WORDS = {
  en: {
    suits: ["clubs", "diamonds", "hearts", "spades"],
    // Rank 0 is the two, rank 12 the ace.
    ranks: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "Jack", "Queen", "King", "Ace"],
    index: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"],
    card: (rank, suit) => `${rank} of ${suit}`,
  },
  pl: {
    suits: ["trefl", "karo", "kier", "pik"],
    ranks: ["Dwójka", "Trójka", "Czwórka", "Piątka", "Szóstka", "Siódemka", "Ósemka", "Dziewiątka", "Dziesiątka",
      "Walet", "Dama", "Król", "As"],
    index: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "W", "D", "K", "A"],
    card: (rank, suit) => `${rank} ${suit}`,
  },
  ru: {
    suits: ["трефы", "бубны", "червы", "пики"],
    // Card names use the genitive plural of the suit: «дама червей», «туз пик», «король бубён», «валет треф».
    suitsOf: ["треф", "бубён", "червей", "пик"],
    ranks: ["Двойка", "Тройка", "Четвёрка", "Пятёрка", "Шестёрка", "Семёрка", "Восьмёрка", "Девятка", "Десятка",
      "Валет", "Дама", "Король", "Туз"],
    index: ["2", "3", "4", "5", "6", "7", "8", "9", "10", "В", "Д", "К", "Т"],
    card: (rank, suit) => `${rank} ${suit}`,
  },
};

// Contracts in the engine's order: C, D, H, S, NT, MZ.
const CONTRACTS = {
  en: ["Clubs", "Diamonds", "Hearts", "Spades", "No trumps", "Mizerka"],
  pl: ["Trefl", "Karo", "Kier", "Pik", "Bez atu", "Mizerka"],
  ru: ["Трефы", "Бубны", "Червы", "Пики", "Без козыря", "Мизерка"],
};

const CATALOGS = {
  en: {
    "lobby.defaultName": "Player",
    "join.title": "Join this table",
    "join.button": "Take a seat",
    "join.watch": "Watch instead",
    "app.title": "Mizerka",
    "app.tagline": "The Polish three-player trick-taking game",
    "nav.lobby": "Lobby",
    "nav.language": "Language",
    "lobby.quickplay": "Play against the computer",
    "lobby.level": "Bot level",
    "lobby.variant": "Rules",
    "lobby.name": "Your name",
    "lobby.private": "Create a private table",
    "lobby.privateHelp": "Invite one or two friends with a link; the other seats go to bots of the level above.",
    "lobby.invite": "Invite link",
    "lobby.copy": "Copy link",
    "lobby.copied": "Link copied",
    "lobby.open": "Open tables",
    "lobby.none": "No open tables right now.",
    "lobby.join": "Join",
    "lobby.watch": "Watch",
    "lobby.refresh": "Refresh",
    "lobby.enter": "Go to the table",
    "lobby.players": { one: "{n} player", other: "{n} players" },
    "lobby.seatsFree": { one: "{n} seat free", other: "{n} seats free" },
    "table.you": "You",
    "table.bot": "bot",
    "table.online": "online",
    "table.offline": "offline",
    "table.waiting": "Waiting for players…",
    "table.empty": "empty seat",
    "table.addBot": "Seat a bot",
    "table.start": "Start the game",
    "table.cards": { one: "{n} card", other: "{n} cards" },
    "table.tricks": { one: "{n} trick", other: "{n} tricks" },
    "table.quota": "quota {n}",
    "table.toMove": "to move",
    "table.yourTurn": "Your turn",
    "table.turnOf": "{name} to move",
    "table.dealer": "dealer",
    "table.forehand": "forehand",
    "table.middlehand": "middlehand",
    "table.deal": "Deal {n} of {total}",
    "table.trumps": "Trumps: {suit}",
    "table.noTrumps": "No trumps",
    "table.take": "take",
    "table.avoid": "avoid",
    "table.takeBanner": "Take tricks",
    "table.avoidBanner": "Avoid tricks",
    "table.choosing": "{name} is choosing the contract",
    "table.exchanging": "{name} is exchanging",
    "table.lastTrick": "Last trick",
    "table.hideLastTrick": "Current trick",
    "table.noLastTrick": "No trick has been completed yet.",
    "table.scoreSheet": "Score sheet",
    "table.hint": "Hint",
    "table.hintText": "Suggested: {action}",
    "table.hintEval": "expected score {value}",
    "table.spectator": "You are watching this table.",
    "table.reconnecting": "Reconnecting…",
    "table.connected": "Connected",
    "table.talon": "Talon",
    "table.exchanged": { one: "exchanged {n} card", other: "exchanged {n} cards" },
    "table.exchangePending": "not exchanged yet",
    "table.yourHand": "Your hand",
    "table.trick": "Current trick",
    "table.invite": "Invite link",
    "table.leave": "Leave",
    "table.discards": "Your discards",
    "choose.title": "Choose the contract",
    "choose.help": "Your first six cards. Pick one of your unused contracts.",
    "choose.forced": "Only {contract} is left: it is chosen for you.",
    "exchange.title": "Exchange with the talon",
    "exchange.help": "Select the cards to discard, then confirm. You draw as many from the talon; you cannot discard again after seeing them.",
    "exchange.limit": { one: "The talon holds {n} card.", other: "The talon holds {n} cards." },
    "exchange.selected": { one: "{n} card selected", other: "{n} cards selected" },
    "exchange.confirm": { one: "Discard {n} card", other: "Discard {n} cards" },
    "exchange.keep": "Keep my hand",
    "exchange.tooMany": "You may discard at most {n}.",
    "exchange.drawn": { one: "You drew {n} card.", other: "You drew {n} cards." },
    "illegal.notYourTurn": "It is not your turn.",
    "illegal.follow": "You must follow suit: {suit}.",
    "illegal.notNow": "This card cannot be played now.",
    "illegal.phase": "Cards are not being played yet.",
    "announce.played": "{name} played {card}.",
    "announce.trickWon": "{name} won the trick.",
    "announce.yourTurn": "Your turn.",
    "announce.chose": "{name} chose {contract}.",
    "announce.exchanged": { one: "{name} exchanged {n} card.", other: "{name} exchanged {n} cards." },
    "announce.dealOver": "Deal {n} is over.",
    "sheet.title": "Score sheet",
    "sheet.player": "Player",
    "sheet.total": "Total",
    "sheet.deal": "Deal",
    "sheet.dealer": "Dealer",
    "sheet.contract": "Contract",
    "sheet.goal": "Goal",
    "sheet.tricks": "Tricks",
    "sheet.scores": "Scores",
    "sheet.totals": "Totals",
    "sheet.empty": "No deal has been scored yet.",
    "sheet.winner": { one: "Winner: {names}", other: "Shared win: {names}" },
    "summary.title": "Deal {n}: {contract}",
    "summary.tricks": "Tricks",
    "summary.quota": "Quota",
    "summary.score": "Score",
    "summary.dd": "Double dummy",
    "summary.ddHelp": "What perfect play with all cards open would have given.",
    "summary.ddNone": "not available",
    "summary.record": "Download the game record",
    "summary.next": "Next deal",
    "summary.close": "Close",
    "over.title": "Game over",
    "over.again": "Play again",
    "over.rematchWaiting": "Waiting for the other players to agree…",
    "over.rematchReady": "The rematch begins.",
    "error.title": "Something went wrong",
    "error.notFound": "This table does not exist or has ended.",
    "error.full": "This table is full.",
    "error.badInvite": "This invite link is not valid.",
    "error.refused": "The server refused: {reason}",
    "error.network": "The server cannot be reached.",
    "error.backToLobby": "Back to the lobby",
    "common.close": "Close",
    "common.ok": "OK",
    "common.cancel": "Cancel",
    "level.random": "Beginner (random)",
    "level.rules": "Casual (rules)",
    "level.pimc": "Strong (PIMC)",
    "level.ismcts": "Strong (IS-MCTS)",
    "level.expert": "Expert",
    "motion.reduced": "Reduced motion",
    "announce.playedYou": "You played {card}.",
    "announce.trickWonYou": "You won the trick.",
    "announce.choseYou": "You chose {contract}.",
    "announce.exchangedYou": { one: "You exchanged {n} card.", other: "You exchanged {n} cards." },
    "announce.kept": "{name} kept the hand.",
    "announce.keptYou": "You kept your hand.",
    "announce.scores": "Scores: {list}.",
    "lobby.opponents": "Opponents",
    "lobby.twoFriends": "Two friends",
    "lobby.friendAndBot": "A friend and a bot",
    "lobby.twoBots": "Two bots",
    "lobby.hints": "Hints",
    "lobby.spectators": "Spectators may watch",
    "lobby.shown": "Showing {n} of {total}",
    "lobby.more": "Show more",
    "variant.standard": "Standard",
    "variant.no_exchange": "No exchange",
    "variant.four_players": "Four players",
    "variant.seed002_literal": "S002 as written",
    "refusal.rate_limited": "Too many requests: wait a moment and try again.",
    "refusal.rate_limitedIn": "Too many requests: try again in {n} s.",
    "refusal.server_full": "The server is full: no new table can be opened just now. Try again later.",
    "refusal.spectators_off": "This table admits no spectators.",
    "refusal.too_many_connections": "The server has too many connections. Try again later.",
    "refusal.table_full": "This table is full.",
    "refusal.seat_taken": "That seat is taken.",
    "refusal.unknown_table": "This table does not exist or has ended.",
    "refusal.bad_token": "This seat is no longer yours.",
    "refusal.match_over": "The match is over.",
    "refusal.not_over": "The match is not over yet.",
    "refusal.not_started": "The match has not started: seats are still open.",
    "refusal.not_your_turn": "It is not your turn.",
    "refusal.stale_seq": "The table moved on meanwhile: look again and decide.",
    "refusal.hints_off": "This table gives no hints.",
    "refusal.no_seat": "Spectators cannot do that.",
    "refusal.illegal_action": "The rules do not allow that now.",
    "refusal.internal": "The server failed to handle this. Try again.",
    "refusal.network": "The server cannot be reached.",
    "refusal.not_in_hand": "You do not hold that card.",
    "refusal.contract_used": "You have played that contract already.",
    "refusal.wrong_phase": "That is not done now.",
  },
  pl: {
    "lobby.defaultName": "Gracz",
    "join.title": "Dołącz do stołu",
    "join.button": "Usiądź przy stole",
    "join.watch": "Tylko obserwuj",
    "app.title": "Mizerka",
    "app.tagline": "Polska gra w lewy dla trzech osób",
    "nav.lobby": "Poczekalnia",
    "nav.language": "Język",
    "lobby.quickplay": "Graj z komputerem",
    "lobby.level": "Poziom komputera",
    "lobby.variant": "Zasady",
    "lobby.name": "Twoje imię",
    "lobby.private": "Utwórz prywatny stół",
    "lobby.privateHelp": "Zaproś jedną lub dwie osoby linkiem; pozostałe miejsca zajmą boty o wybranym wyżej poziomie.",
    "lobby.invite": "Link z zaproszeniem",
    "lobby.copy": "Kopiuj link",
    "lobby.copied": "Skopiowano link",
    "lobby.open": "Otwarte stoły",
    "lobby.none": "Nie ma teraz otwartych stołów.",
    "lobby.join": "Dołącz",
    "lobby.watch": "Obserwuj",
    "lobby.refresh": "Odśwież",
    "lobby.enter": "Przejdź do stołu",
    "lobby.players": { one: "{n} gracz", few: "{n} graczy", many: "{n} graczy", other: "{n} gracza" },
    "lobby.seatsFree": { one: "{n} wolne miejsce", few: "{n} wolne miejsca", many: "{n} wolnych miejsc",
      other: "{n} wolnego miejsca" },
    "table.you": "Ty",
    "table.bot": "bot",
    "table.online": "połączony",
    "table.offline": "rozłączony",
    "table.waiting": "Czekamy na graczy…",
    "table.empty": "wolne miejsce",
    "table.addBot": "Posadź bota",
    "table.start": "Rozpocznij grę",
    "table.cards": { one: "{n} karta", few: "{n} karty", many: "{n} kart", other: "{n} karty" },
    "table.tricks": { one: "{n} lewa", few: "{n} lewy", many: "{n} lew", other: "{n} lewy" },
    "table.quota": "norma {n}",
    "table.toMove": "na ruchu",
    "table.yourTurn": "Twój ruch",
    "table.turnOf": "Ruch: {name}",
    "table.dealer": "rozdający",
    "table.forehand": "przodownik",
    "table.middlehand": "środkowy",
    "table.deal": "Rozdanie {n} z {total}",
    "table.trumps": "Atu: {suit}",
    "table.noTrumps": "Bez atu",
    "table.take": "bierz",
    "table.avoid": "unikaj",
    "table.takeBanner": "Bierz lewy",
    "table.avoidBanner": "Unikaj lew",
    "table.choosing": "{name} wybiera kontrakt",
    "table.exchanging": "{name} wymienia karty",
    "table.lastTrick": "Ostatnia lewa",
    "table.hideLastTrick": "Bieżąca lewa",
    "table.noLastTrick": "Żadna lewa nie została jeszcze zebrana.",
    "table.scoreSheet": "Tabela wyników",
    "table.hint": "Podpowiedź",
    "table.hintText": "Propozycja: {action}",
    "table.hintEval": "oczekiwany wynik {value}",
    "table.spectator": "Obserwujesz ten stół.",
    "table.reconnecting": "Ponowne łączenie…",
    "table.connected": "Połączono",
    "table.talon": "Talon",
    "table.exchanged": { one: "wymiana: {n} karta", few: "wymiana: {n} karty", many: "wymiana: {n} kart",
      other: "wymiana: {n} karty" },
    "table.exchangePending": "przed wymianą",
    "table.yourHand": "Twoje karty",
    "table.trick": "Bieżąca lewa",
    "table.invite": "Link z zaproszeniem",
    "table.leave": "Wyjdź",
    "table.discards": "Twoje odrzucone karty",
    "choose.title": "Wybierz kontrakt",
    "choose.help": "Twoje pierwsze sześć kart. Wybierz jeden z niewykorzystanych kontraktów.",
    "choose.forced": "Został tylko kontrakt {contract}: wybrano go za Ciebie.",
    "exchange.title": "Wymiana z talonem",
    "exchange.help": "Zaznacz karty do odrzucenia i potwierdź. Dobierzesz tyle samo z talonu; po ich zobaczeniu nie można już nic odrzucić.",
    "exchange.limit": { one: "W talonie jest {n} karta.", few: "W talonie są {n} karty.",
      many: "W talonie jest {n} kart.", other: "W talonie jest {n} karty." },
    "exchange.selected": { one: "Zaznaczono {n} kartę", few: "Zaznaczono {n} karty", many: "Zaznaczono {n} kart",
      other: "Zaznaczono {n} karty" },
    "exchange.confirm": { one: "Odrzuć {n} kartę", few: "Odrzuć {n} karty", many: "Odrzuć {n} kart",
      other: "Odrzuć {n} karty" },
    "exchange.keep": "Zostaw karty",
    "exchange.tooMany": "Możesz odrzucić najwyżej {n}.",
    "exchange.drawn": { one: "Dobierasz {n} kartę.", few: "Dobierasz {n} karty.", many: "Dobierasz {n} kart.",
      other: "Dobierasz {n} karty." },
    "illegal.notYourTurn": "To nie Twój ruch.",
    "illegal.follow": "Musisz dołożyć do koloru: {suit}.",
    "illegal.notNow": "Tej karty nie można teraz zagrać.",
    "illegal.phase": "Rozgrywka jeszcze się nie zaczęła.",
    "announce.played": "{name} zagrywa: {card}.",
    "announce.trickWon": "{name} bierze lewę.",
    "announce.yourTurn": "Twój ruch.",
    "announce.chose": "{name} wybiera: {contract}.",
    "announce.exchanged": { one: "{name} wymienia {n} kartę.", few: "{name} wymienia {n} karty.",
      many: "{name} wymienia {n} kart.", other: "{name} wymienia {n} karty." },
    "announce.dealOver": "Koniec rozdania {n}.",
    "sheet.title": "Tabela wyników",
    "sheet.player": "Gracz",
    "sheet.total": "Suma",
    "sheet.deal": "Rozdanie",
    "sheet.dealer": "Rozdający",
    "sheet.contract": "Kontrakt",
    "sheet.goal": "Cel",
    "sheet.tricks": "Lewy",
    "sheet.scores": "Punkty",
    "sheet.totals": "Sumy",
    "sheet.empty": "Żadne rozdanie nie zostało jeszcze zapisane.",
    "sheet.winner": { one: "Zwycięzca: {names}", few: "Wspólne zwycięstwo: {names}",
      many: "Wspólne zwycięstwo: {names}", other: "Wspólne zwycięstwo: {names}" },
    "summary.title": "Rozdanie {n}: {contract}",
    "summary.tricks": "Lewy",
    "summary.quota": "Norma",
    "summary.score": "Wynik",
    "summary.dd": "W otwarte karty",
    "summary.ddHelp": "Co dałaby bezbłędna gra w otwarte karty.",
    "summary.ddNone": "niedostępne",
    "summary.record": "Pobierz zapis partii",
    "summary.next": "Następne rozdanie",
    "summary.close": "Zamknij",
    "over.title": "Koniec gry",
    "over.again": "Zagraj jeszcze raz",
    "over.rematchWaiting": "Czekamy, aż pozostali gracze się zgodzą…",
    "over.rematchReady": "Rewanż się zaczyna.",
    "error.title": "Coś poszło nie tak",
    "error.notFound": "Ten stół nie istnieje albo gra już się skończyła.",
    "error.full": "Przy tym stole nie ma wolnych miejsc.",
    "error.badInvite": "Ten link z zaproszeniem jest nieprawidłowy.",
    "error.refused": "Serwer odmówił: {reason}",
    "error.network": "Nie można połączyć się z serwerem.",
    "error.backToLobby": "Wróć do poczekalni",
    "common.close": "Zamknij",
    "common.ok": "OK",
    "common.cancel": "Anuluj",
    "level.random": "Początkujący (losowy)",
    "level.rules": "Amator (reguły)",
    "level.pimc": "Silny (PIMC)",
    "level.ismcts": "Silny (IS-MCTS)",
    "level.expert": "Ekspert",
    "motion.reduced": "Ograniczony ruch",
    "announce.playedYou": "Zagrywasz: {card}.",
    "announce.trickWonYou": "Bierzesz lewę.",
    "announce.choseYou": "Wybierasz: {contract}.",
    "announce.exchangedYou": { one: "Wymieniasz {n} kartę.", few: "Wymieniasz {n} karty.", many: "Wymieniasz {n} kart.",
      other: "Wymieniasz {n} karty." },
    "announce.kept": "{name} zostawia swoje karty.",
    "announce.keptYou": "Zostawiasz swoje karty.",
    "announce.scores": "Wyniki: {list}.",
    "lobby.opponents": "Przeciwnicy",
    "lobby.twoFriends": "Dwoje znajomych",
    "lobby.friendAndBot": "Znajomy i bot",
    "lobby.twoBots": "Dwa boty",
    "lobby.hints": "Podpowiedzi",
    "lobby.spectators": "Obserwatorzy mogą patrzeć",
    "lobby.shown": "Pokazano {n} z {total}",
    "lobby.more": "Pokaż więcej",
    "variant.standard": "Standardowe",
    "variant.no_exchange": "Bez wymiany",
    "variant.four_players": "Czterech graczy",
    "variant.seed002_literal": "S002 dosłownie",
    "refusal.rate_limited": "Zbyt wiele prób: odczekaj chwilę i spróbuj ponownie.",
    "refusal.rate_limitedIn": "Zbyt wiele prób: spróbuj ponownie za {n} s.",
    "refusal.server_full": "Serwer jest pełny: nie można teraz otworzyć nowego stołu. Spróbuj później.",
    "refusal.spectators_off": "Ten stół nie przyjmuje obserwatorów.",
    "refusal.too_many_connections": "Serwer ma zbyt wiele połączeń. Spróbuj później.",
    "refusal.table_full": "Przy tym stole nie ma wolnych miejsc.",
    "refusal.seat_taken": "To miejsce jest zajęte.",
    "refusal.unknown_table": "Ten stół nie istnieje albo gra już się skończyła.",
    "refusal.bad_token": "To miejsce nie należy już do Ciebie.",
    "refusal.match_over": "Partia się skończyła.",
    "refusal.not_over": "Partia jeszcze trwa.",
    "refusal.not_started": "Partia się nie zaczęła: są jeszcze wolne miejsca.",
    "refusal.not_your_turn": "To nie Twój ruch.",
    "refusal.stale_seq": "W międzyczasie gra poszła dalej: spójrz jeszcze raz i zdecyduj.",
    "refusal.hints_off": "Przy tym stole nie ma podpowiedzi.",
    "refusal.no_seat": "Obserwator nie może tego zrobić.",
    "refusal.illegal_action": "Zasady teraz na to nie pozwalają.",
    "refusal.internal": "Serwer nie poradził sobie z tym. Spróbuj ponownie.",
    "refusal.network": "Nie można połączyć się z serwerem.",
    "refusal.not_in_hand": "Nie masz tej karty.",
    "refusal.contract_used": "Ten kontrakt już rozegrałeś.",
    "refusal.wrong_phase": "Tego teraz się nie robi.",
  },
  ru: {
    "lobby.defaultName": "Игрок",
    "join.title": "Присоединиться к столу",
    "join.button": "Сесть за стол",
    "join.watch": "Только смотреть",
    "app.title": "Мизерка",
    "app.tagline": "Польская карточная игра на взятки для троих",
    "nav.lobby": "Лобби",
    "nav.language": "Язык",
    "lobby.quickplay": "Играть с компьютером",
    "lobby.level": "Уровень компьютера",
    "lobby.variant": "Правила",
    "lobby.name": "Ваше имя",
    "lobby.private": "Создать закрытый стол",
    "lobby.privateHelp": "Пригласите одного или двух друзей по ссылке; остальные места займут боты выбранного выше уровня.",
    "lobby.invite": "Ссылка-приглашение",
    "lobby.copy": "Скопировать ссылку",
    "lobby.copied": "Ссылка скопирована",
    "lobby.open": "Открытые столы",
    "lobby.none": "Сейчас нет открытых столов.",
    "lobby.join": "Сесть",
    "lobby.watch": "Смотреть",
    "lobby.refresh": "Обновить",
    "lobby.enter": "Перейти к столу",
    "lobby.players": { one: "{n} игрок", few: "{n} игрока", many: "{n} игроков", other: "{n} игрока" },
    "lobby.seatsFree": { one: "{n} свободное место", few: "{n} свободных места", many: "{n} свободных мест",
      other: "{n} свободного места" },
    "table.you": "Вы",
    "table.bot": "бот",
    "table.online": "в сети",
    "table.offline": "не в сети",
    "table.waiting": "Ждём игроков…",
    "table.empty": "свободное место",
    "table.addBot": "Посадить бота",
    "table.start": "Начать игру",
    "table.cards": { one: "{n} карта", few: "{n} карты", many: "{n} карт", other: "{n} карты" },
    "table.tricks": { one: "{n} взятка", few: "{n} взятки", many: "{n} взяток", other: "{n} взятки" },
    "table.quota": "норма {n}",
    "table.toMove": "ходит",
    "table.yourTurn": "Ваш ход",
    "table.turnOf": "Ходит {name}",
    "table.dealer": "сдающий",
    "table.forehand": "первая рука",
    "table.middlehand": "вторая рука",
    "table.deal": "Сдача {n} из {total}",
    "table.trumps": "Козыри: {suit}",
    "table.noTrumps": "Без козыря",
    "table.take": "брать",
    "table.avoid": "не брать",
    "table.takeBanner": "Берите взятки",
    "table.avoidBanner": "Избегайте взяток",
    "table.choosing": "{name} выбирает контракт",
    "table.exchanging": "{name} меняет карты",
    "table.lastTrick": "Последняя взятка",
    "table.hideLastTrick": "Текущая взятка",
    "table.noLastTrick": "Ещё ни одной взятки не сыграно.",
    "table.scoreSheet": "Запись",
    "table.hint": "Подсказка",
    "table.hintText": "Совет: {action}",
    "table.hintEval": "ожидаемый счёт {value}",
    "table.spectator": "Вы наблюдаете за этим столом.",
    "table.reconnecting": "Переподключение…",
    "table.connected": "Подключено",
    "table.talon": "Прикуп",
    "table.exchanged": { one: "обмен: {n} карта", few: "обмен: {n} карты", many: "обмен: {n} карт",
      other: "обмен: {n} карты" },
    "table.exchangePending": "до обмена",
    "table.yourHand": "Ваши карты",
    "table.trick": "Текущая взятка",
    "table.invite": "Ссылка-приглашение",
    "table.leave": "Выйти",
    "table.discards": "Ваш снос",
    "choose.title": "Выберите контракт",
    "choose.help": "Ваши первые шесть карт. Выберите один из ещё не сыгранных контрактов.",
    "choose.forced": "Остался только контракт «{contract}»: он выбран за вас.",
    "exchange.title": "Обмен с прикупом",
    "exchange.help": "Отметьте карты для сброса и подтвердите. Вы возьмёте столько же из прикупа; после этого сбрасывать больше нельзя.",
    "exchange.limit": { one: "В прикупе {n} карта.", few: "В прикупе {n} карты.", many: "В прикупе {n} карт.",
      other: "В прикупе {n} карты." },
    "exchange.selected": { one: "Выбрана {n} карта", few: "Выбрано {n} карты", many: "Выбрано {n} карт",
      other: "Выбрано {n} карты" },
    "exchange.confirm": { one: "Сбросить {n} карту", few: "Сбросить {n} карты", many: "Сбросить {n} карт",
      other: "Сбросить {n} карты" },
    "exchange.keep": "Оставить карты",
    "exchange.tooMany": "Можно сбросить не больше {n}.",
    "exchange.drawn": { one: "Вы взяли {n} карту.", few: "Вы взяли {n} карты.", many: "Вы взяли {n} карт.",
      other: "Вы взяли {n} карты." },
    "illegal.notYourTurn": "Сейчас не ваш ход.",
    "illegal.follow": "Нужно ходить в масть: {suit}.",
    "illegal.notNow": "Эту карту сейчас нельзя сыграть.",
    "illegal.phase": "Розыгрыш ещё не начался.",
    "announce.played": "{name}: {card}.",
    "announce.trickWon": "{name} берёт взятку.",
    "announce.yourTurn": "Ваш ход.",
    "announce.chose": "{name} выбирает: {contract}.",
    "announce.exchanged": { one: "{name} меняет {n} карту.", few: "{name} меняет {n} карты.",
      many: "{name} меняет {n} карт.", other: "{name} меняет {n} карты." },
    "announce.dealOver": "Сдача {n} окончена.",
    "sheet.title": "Запись",
    "sheet.player": "Игрок",
    "sheet.total": "Итого",
    "sheet.deal": "Сдача",
    "sheet.dealer": "Сдающий",
    "sheet.contract": "Контракт",
    "sheet.goal": "Цель",
    "sheet.tricks": "Взятки",
    "sheet.scores": "Очки",
    "sheet.totals": "Итоги",
    "sheet.empty": "Ещё ни одна сдача не записана.",
    "sheet.winner": { one: "Победитель: {names}", few: "Общая победа: {names}", many: "Общая победа: {names}",
      other: "Общая победа: {names}" },
    "summary.title": "Сдача {n}: {contract}",
    "summary.tricks": "Взятки",
    "summary.quota": "Норма",
    "summary.score": "Очки",
    "summary.dd": "В открытую",
    "summary.ddHelp": "Что дала бы безошибочная игра в открытые карты.",
    "summary.ddNone": "нет данных",
    "summary.record": "Скачать запись партии",
    "summary.next": "Следующая сдача",
    "summary.close": "Закрыть",
    "over.title": "Игра окончена",
    "over.again": "Сыграть ещё",
    "over.rematchWaiting": "Ждём согласия остальных игроков…",
    "over.rematchReady": "Начинается новая партия.",
    "error.title": "Что-то пошло не так",
    "error.notFound": "Этого стола нет или игра уже закончилась.",
    "error.full": "За этим столом нет свободных мест.",
    "error.badInvite": "Эта ссылка-приглашение недействительна.",
    "error.refused": "Сервер отказал: {reason}",
    "error.network": "Сервер недоступен.",
    "error.backToLobby": "Вернуться в лобби",
    "common.close": "Закрыть",
    "common.ok": "OK",
    "common.cancel": "Отмена",
    "level.random": "Новичок (случайный)",
    "level.rules": "Любитель (правила)",
    "level.pimc": "Сильный (PIMC)",
    "level.ismcts": "Сильный (IS-MCTS)",
    "level.expert": "Эксперт",
    "motion.reduced": "Меньше анимации",
    "announce.playedYou": "Вы сыграли: {card}.",
    "announce.trickWonYou": "Вы берёте взятку.",
    "announce.choseYou": "Вы выбрали: {contract}.",
    "announce.exchangedYou": { one: "Вы поменяли {n} карту.", few: "Вы поменяли {n} карты.",
      many: "Вы поменяли {n} карт.", other: "Вы поменяли {n} карты." },
    "announce.kept": "{name} оставляет свои карты.",
    "announce.keptYou": "Вы оставили свои карты.",
    "announce.scores": "Очки: {list}.",
    "lobby.opponents": "Соперники",
    "lobby.twoFriends": "Два друга",
    "lobby.friendAndBot": "Друг и бот",
    "lobby.twoBots": "Два бота",
    "lobby.hints": "Подсказки",
    "lobby.spectators": "Зрители могут смотреть",
    "lobby.shown": "Показано {n} из {total}",
    "lobby.more": "Показать ещё",
    "variant.standard": "Стандартные",
    "variant.no_exchange": "Без обмена",
    "variant.four_players": "Вчетвером",
    "variant.seed002_literal": "S002 дословно",
    "refusal.rate_limited": "Слишком много запросов: подождите немного и попробуйте снова.",
    "refusal.rate_limitedIn": "Слишком много запросов: попробуйте снова через {n} с.",
    "refusal.server_full": "Сервер переполнен: новый стол сейчас открыть нельзя. Попробуйте позже.",
    "refusal.spectators_off": "За этим столом нельзя наблюдать: зрители не допускаются.",
    "refusal.too_many_connections": "У сервера слишком много подключений. Попробуйте позже.",
    "refusal.table_full": "За этим столом нет свободных мест.",
    "refusal.seat_taken": "Это место занято.",
    "refusal.unknown_table": "Этого стола нет или игра уже закончилась.",
    "refusal.bad_token": "Это место больше не ваше.",
    "refusal.match_over": "Партия окончена.",
    "refusal.not_over": "Партия ещё не окончена.",
    "refusal.not_started": "Партия не началась: есть свободные места.",
    "refusal.not_your_turn": "Сейчас не ваш ход.",
    "refusal.stale_seq": "Пока вы решали, игра ушла вперёд: посмотрите ещё раз.",
    "refusal.hints_off": "За этим столом подсказок нет.",
    "refusal.no_seat": "Зритель не может этого сделать.",
    "refusal.illegal_action": "Правила сейчас этого не позволяют.",
    "refusal.internal": "Сервер не справился. Попробуйте снова.",
    "refusal.network": "Сервер недоступен.",
    "refusal.not_in_hand": "У вас нет этой карты.",
    "refusal.contract_used": "Этот контракт вы уже играли.",
    "refusal.wrong_phase": "Сейчас это не делается.",
  },
};

let current = "en";
const listeners = new Set();

function detect() {
  const saved = (() => { try { return localStorage.getItem("mizerka.lang"); } catch { return null; } })();
  if (saved && saved in CATALOGS) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const base = String(tag).slice(0, 2).toLowerCase();
    if (base in CATALOGS) return base;
  }
  return "en";
}

/** The current language code: "en", "pl" or "ru". */
export function lang() {
  return current;
}

/** Switch language, remember it, and tell every listener (the views re-render). */
export function setLang(code) {
  if (!(code in CATALOGS)) throw new Error(`unknown language: ${code}`);
  current = code;
  try { localStorage.setItem("mizerka.lang", code); } catch { /* private mode */ }
  document.documentElement.lang = code;
  for (const fn of listeners) fn(code);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

export function initLang() {
  current = detect();
  document.documentElement.lang = current;
}

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** The plural category of *n* in the current language ("one", "few", "many", "other"). */
export function pluralCategory(n, code = current) {
  return new Intl.PluralRules(code).select(n);
}

/**
 * Translate *key*, filling `{name}` placeholders from *params*.  A plural entry picks its form by `params.n`.
 * A missing key falls back to English, then to the key itself (so a gap is visible, never blank).
 */
export function t(key, params = {}) {
  let entry = CATALOGS[current][key];
  if (entry === undefined) entry = CATALOGS.en[key];
  if (entry === undefined) return key;
  if (typeof entry === "object") {
    const cat = pluralCategory(Number(params.n ?? 0));
    entry = entry[cat] ?? entry.other ?? entry.one;
  }
  return fill(entry, params);
}

/** "Queen of hearts", "Dama kier", "Дама червей". */
export function cardName(card) {
  const words = CARD_WORDS[current];
  const suit = Math.floor(card / 13);
  const rank = card % 13;
  const suitWord = (words.suitsOf || words.suits)[suit];
  const name = words.card(words.ranks[rank], suitWord);
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The short rank printed in a card's corner: "Q", "D", "Д". */
export function rankIndex(rank) {
  return CARD_WORDS[current].index[rank];
}

/** The suit's name in the nominative plural: "hearts", "kier", "червы". */
export function suitName(suit) {
  return CARD_WORDS[current].suits[suit];
}

/** A bot level's name: "Casual (rules)", "Amator (reguły)"; an unknown level as the server wrote it. */
export function levelName(level) {
  const key = `level.${level}`;
  return CATALOGS[current][key] ?? CATALOGS.en[key] ?? String(level);
}

/** A rules variant's name: "Standard", "Bez wymiany"; an unknown variant as the server wrote it. */
export function variantName(variant) {
  const key = `variant.${String(variant).replace(/-/g, "_")}`;
  return CATALOGS[current][key] ?? CATALOGS.en[key] ?? String(variant);
}

/**
 * What a refusal from the server means, in the player's language (the server's own message is English), or null
 * for a code without a sentence here.  *params*: `seconds` (Retry-After), `suit` (the suit led, for an illegal
 * action that did not follow suit), `reason` (an illegal action's reason code).
 */
export function refusalReason(code, params = {}) {
  if (code === "illegal_action" && params.suit !== undefined && params.suit !== null) {
    return t("illegal.follow", { suit: suitName(params.suit) });
  }
  // an illegal action's own reason code, when there is a sentence for it
  if (code === "illegal_action" && params.reason && CATALOGS.en[`refusal.${params.reason}`] !== undefined) {
    return t(`refusal.${params.reason}`);
  }
  if (code === "rate_limited" && params.seconds) return t("refusal.rate_limitedIn", { n: params.seconds });
  const key = `refusal.${code}`;
  return code && CATALOGS.en[key] !== undefined ? t(key) : null;
}

/** A refusal as a sentence: what its code means, else "The server refused: <the server's message>". */
export function refusalText(code, message, params = {}) {
  return refusalReason(code, params) ?? t("error.refused", { reason: message || code });
}

/** The contract's name: "Hearts", "Bez atu", "Мизерка". */
export function contractName(contract) {
  return CONTRACTS[current][contract];
}

/** Format a signed score the way a score sheet does: +3, −2, 0. */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `\u2212${-n}`;
  return "0";
}

/** Join names with the language's list conjunction ("A and B", "A i B", "A и B"). */
export function listOf(items) {
  try {
    return new Intl.ListFormat(current, { type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

export const _catalogsForTests = CATALOGS;
