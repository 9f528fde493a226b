"""A teacher's lesson for the tests: a YAML file and nothing else, as a teacher would write it."""

# A teacher's lesson, YAML and nothing else, in a folder the Voila server is given as `cheren app
# --lessons DIR` gives it ($CHEREN_LESSONS): the course lists it after the bundled lessons.
TEACHER_LESSON = """\
name: teachers-roads
title: "A teacher's lesson: roads and mountains"
order: 50
rules: ["9.0", "9.1"]
blocks:
  - text: A road hex costs half a movement point, whatever the terrain; a tank never enters a mountain.
exercises:
  - id: tank-to-tessenei
    title: The road to Tessenei
    goal: Drive the Tank from Kassala (0208) to Tessenei (0512).
    side: allied
    position:
      turn: 1
      allied_control: [Kassala]
      units:
        - {unit: Tank, hex: "0208"}
        - {unit: Col 5, hex: "2205"}
    success:
      - unit_in: {unit: Tank, hexes: ["0512"]}
    solution:
      - move: {unit: Tank, to: "0512"}
    explain: The road runs from Kassala to Tessenei.
  - id: no-mountain
    title: Not into the mountain
    goal: Try to move the Tank from Agordat (1708) into the mountain hex 1808, and read why it cannot.
    side: allied
    position:
      turn: 2
      allied_control: [Agordat]
      units:
        - {unit: Tank, hex: "1708"}
        - {unit: Col 5, hex: "2205"}
    success:
      - refused: {rule: "9.1", hex: "1808"}
    solution:
      - move: {unit: Tank, to: "1808"}
"""
