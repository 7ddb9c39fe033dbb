// One sim script, two models: on `old` the skill writes the card and the bare agent does not; on `new` the bare
// agent writes it too (the skill is needless), and eval 2's skill breaks on `new`. The trigger query for a birthday
// card picks the skill on `old` and not on `new`.
export const modelScript = {
  rules: [
    {
      match: "greeting card",
      model: "^old$",
      steps: [{ write: { path: "card.txt", content: "Hello, Ada!\n" } }],
      without_skill: [{ text: "Hello Ada." }],
    },
    {
      match: "greeting card",
      model: "^new$",
      skill: "none",
      without_skill: [{ write: { path: "card.txt", content: "Hi Ada\n" } }],
    },
    {
      match: "thank-you note",
      model: "^old$",
      steps: [{ write: { path: "note.txt", content: "Thank you!\n" } }],
      without_skill: [{ text: "Thanks." }],
    },
    {
      match: "thank-you note",
      model: "^new$",
      steps: [{ text: "No note today." }],
      without_skill: [{ text: "Thanks." }],
    },
    {
      match: "birthday card",
      model: "^old$",
      skill: "~greeter-sg-",
      steps: [{ text: "Card written." }],
    },
    {
      match: "birthday card",
      model: "^new$",
      skill: "none",
      without_skill: [{ text: "Happy birthday!" }],
    },
  ],
};
