from manoeuvre_sim.cli.main import main

main()
