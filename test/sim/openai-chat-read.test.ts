import { describe, expect, it } from "vitest";
import { openaiChat } from "../../src/sim/protocols/openai-chat.js";

describe("the chat-completions reader", () => {
  it("gives the judge the texts of system and user messages only, text parts joined by line breaks, other parts and shapes as empty text", () => {
    const wire = openaiChat.read(
      JSON.stringify({
        model: "gpt-x",
        messages: [
          { role: "system", content: "Be brief." },
          {
            role: "user",
            content: [
              { type: "text", text: "Sum" },
              { type: "image_url" },
              { type: "text", text: "the rows" },
            ],
          },
          { role: "assistant", content: "Done." },
          { role: "user", content: null },
        ],
      }),
      {},
    );
    expect(wire.request.judgeText).toBe("Be brief.\nSum\n\nthe rows\n");
    expect(wire.request.session).toBe("chat-completions");
    expect(wire.request.conversation.model).toBe("gpt-x");
  });

  it("names the model unknown when the request names none", () => {
    const wire = openaiChat.read(JSON.stringify({ messages: [{ role: "user", content: "hi" }] }), {});
    expect(wire.request.conversation.model).toBe("unknown");
    expect(wire.request.judgeText).toBe("hi");
  });
});
